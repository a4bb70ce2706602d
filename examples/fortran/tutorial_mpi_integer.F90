! The same MPI setup from a `use mpi` program: an integer communicator.
!     mpirun -np 2 tutorial_fortran_mpi_integer [file.h5]
program tutorial_mpi_integer
    use mpi
    use scope_profiler
    use scope_profiler_mpi
    implicit none
    integer :: ierr, status, step
    character(len=256) :: path

    call MPI_Init(ierr)
    path = "profiling_data.h5"
    if (command_argument_count() >= 1) call get_command_argument(1, path)
    call sp_mpi_setup(MPI_COMM_WORLD, file_path=trim(path), status=status)
    if (status /= SP_OK) error stop "sp_mpi_setup failed"
    do step = 1, 3
        call sp_begin_name("step")
        call sp_end_name("step")
    end do
    if (sp_mpi_rank() < 0) error stop "no rank"
    call sp_finalize(quiet=.true., status=status)
    if (status /= SP_OK) error stop "sp_finalize failed"
    call MPI_Finalize(ierr)
end program tutorial_mpi_integer
