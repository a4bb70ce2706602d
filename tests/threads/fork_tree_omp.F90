! Fortran OpenMP reproducer for docs/parallel.md section 1 (run by
! check_fork_tree.py): in each step the master's omp_body starts before the
! workers' and outlasts them, and the workers' omp_wait calls run while it is
! open; then a nested parallel region under outer. Every worker call belongs
! under the call open on its forking thread when the region began.
#include "scope_profiler.fh"
program fork_tree_omp
    use iso_c_binding, only: c_int
    use omp_lib
    use scope_profiler
    implicit none
    integer :: s, status, master_in
    character(len=256) :: path

    path = "fork_tree_omp_f.h5"
    if (command_argument_count() >= 1) call get_command_argument(1, path)
    call sp_setup(file_path=trim(path), status=status)
    if (status /= SP_OK) stop 1
    do s = 1, 3
        call sp_begin_name("omp_step")
        master_in = 0
        !$omp parallel num_threads(3) shared(master_in)
        if (omp_get_thread_num() == 0) then
            call sp_begin_name("omp_body")
            !$omp atomic write
            master_in = 1
            call spin(0.03d0)
            call sp_end_name("omp_body")
        else
            call wait_for(master_in)
            call sp_begin_name("omp_body")
            call sp_begin_name("omp_compute")
            call spin(0.002d0)
            call sp_end_name("omp_compute")
            call sp_end_name("omp_body")
            call sp_begin_name("omp_wait")
            call spin(0.001d0)
            call sp_end_name("omp_wait")
        end if
        !$omp end parallel
        call sp_end_name("omp_step")
    end do
    call omp_set_max_active_levels(2)
    call sp_begin_name("outer")
    !$omp parallel num_threads(2)
    call sp_begin_name("team")
    !$omp parallel num_threads(2)
    call sp_begin_name("inner")
    call spin(0.002d0)
    call sp_end_name("inner")
    !$omp end parallel
    call sp_end_name("team")
    !$omp end parallel
    call sp_end_name("outer")
    call sp_finalize(quiet=.true., status=status)
    if (status /= SP_OK) stop 1
contains
    subroutine wait_for(flag)
        integer, intent(inout) :: flag
        integer :: seen
        seen = 0
        do while (seen == 0)
            !$omp atomic read
            seen = flag
        end do
    end subroutine wait_for

    ! Sleeps (4 threads on 2 loaded cores would otherwise measure the scheduler).
    subroutine spin(seconds)
        real(8), intent(in) :: seconds
        integer(8) :: start, now, rate
        call system_clock(start, rate)
        now = start
        do while (real(now - start, 8) / real(rate, 8) < seconds)
            call sleep_briefly()
            call system_clock(now)
        end do
    end subroutine spin

    subroutine sleep_briefly()
        interface
            integer(c_int) function usleep(us) bind(c, name="usleep")
                import :: c_int
                integer(c_int), value :: us
            end function usleep
        end interface
        integer :: rc
        rc = usleep(200)
    end subroutine sleep_briefly
end program fork_tree_omp
