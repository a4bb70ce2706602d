! The tutorial's workload in an MPI Fortran program (use mpi_f08): rank r
! assembles r + 1 times as long.  mpirun -np 2 tutorial_fortran_mpi [file.h5]
program tutorial_mpi
    use mpi_f08
    use scope_profiler
    use scope_profiler_mpi
    implicit none
    integer :: h_step, h_assemble, h_solve, h_residual, step, rank, status
    character(len=256) :: path
    real(8) :: sink

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    path = "profiling_data.h5"
    if (command_argument_count() >= 1) call get_command_argument(1, path)
    call sp_mpi_setup(MPI_COMM_WORLD, file_path=trim(path), label="tutorial fortran mpi", &
                      status=status)                       ! collective
    if (status /= SP_OK) error stop "sp_mpi_setup failed"
    h_step = sp_region("timestep")
    h_assemble = sp_region("assemble")
    h_solve = sp_region("solve")
    h_residual = sp_region("residual")

    sink = 0
    call sp_begin_name("setup")
    sink = sink + spin(0.002d0)
    call sp_end_name("setup")
    do step = 0, 4
        call sp_begin(h_step)
        call sp_begin(h_assemble)
        sink = sink + spin(0.002d0 * (rank + 1))
        call sp_end(h_assemble)
        call sp_begin(h_solve)
        call sp_begin(h_residual)
        sink = sink + spin(0.001d0)
        call sp_end(h_residual)
        call sp_end(h_solve)
        call sp_end(h_step)
    end do
    call sp_finalize(quiet=.true., status=status)          ! collective
    if (status /= SP_OK .or. sink < 0) error stop "sp_finalize failed"
    call MPI_Finalize()

contains

    real(8) function spin(seconds)
        real(8), intent(in) :: seconds
        integer(8) :: t0, t, rate
        integer :: i
        spin = 0
        call system_clock(t0, rate)
        do
            do i = 1, 1000
                spin = spin + 1d-9 * i
            end do
            call system_clock(t)
            if (real(t - t0, 8) / rate >= seconds) exit
        end do
    end function
end program tutorial_mpi
