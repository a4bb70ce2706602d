! The tutorial's workload in Fortran: a setup phase, then five time steps
! that assemble and solve.  tutorial_fortran [file.h5 [quiet]]
#include "scope_profiler.fh"
program tutorial
    use scope_profiler
    implicit none
    integer :: h_step, h_assemble, h_solve, step, status, nargs
    character(len=256) :: path
    real(8) :: sink

    path = "profiling_data.h5"
    nargs = command_argument_count()
    if (nargs >= 1) call get_command_argument(1, path)
    call sp_setup(file_path=trim(path), label="tutorial fortran", status=status)
    if (status /= SP_OK) then
        print '(a)', "tutorial_fortran: " // sp_status_string(status)
        stop 1
    end if
    call sp_set_thread_name("main")

    ! handles: interned once, the cheapest form; SP_LOC records this line
    h_step = sp_region("timestep", SP_LOC)
    h_assemble = sp_region("assemble", SP_LOC)
    h_solve = sp_region("solve", SP_LOC)

    sink = 0
    call sp_begin_name("setup")          ! by name
    sink = sink + spin(0.005d0)
    call sp_end_name("setup")
    do step = 0, 4
        call sp_begin(h_step)
        call sp_begin(h_assemble)
        sink = sink + spin(0.002d0 * (1 + mod(step, 3)))
        call sp_end(h_assemble, SP_LOC)
        call sp_begin(h_solve)
        sink = sink + residual(spin(0.001d0))
        call sp_end(h_solve)
        call sp_end(h_step)
    end do

    call sp_finalize(quiet=nargs >= 2, status=status)
    if (status /= SP_OK .or. sink < 0) then
        print '(a)', "tutorial_fortran: " // sp_status_string(status)
        stop 1
    end if

contains

    real(8) function residual(x)
        real(8), intent(in) :: x
        call sp_begin_name("residual", SP_LOC)
        residual = 0.5d0 * x
        call sp_end_name("residual", SP_LOC)
    end function

    ! Keeps the CPU busy for about `seconds`.
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
end program tutorial
