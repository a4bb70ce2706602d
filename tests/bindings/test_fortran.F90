! The Fortran module: optional arguments, handles, by-name calls (also
! with trailing blanks), status codes and strings, thread names, and a
! mismatch reported with its Fortran file and line (SP_LOC). Writes FILE;
! test_fortran.sh checks the profile and the report.
#include "scope_profiler.fh"
program test_fortran
    use scope_profiler
    implicit none
    integer :: st, h, h2, i
    character(len=256) :: path
    character(len=16) :: padded
    logical :: ok

    ok = .true.
    call get_command_argument(1, path)
    if (len_trim(path) == 0) error stop "usage: test_fortran FILE"

    ! statuses: codes and the C strings
    call check(sp_status_string(SP_OK) == "success", "SP_OK string")
    call check(sp_status_string(SP_ERR_NO_DIRECTORY) == &
               "the output directory does not exist", "NO_DIRECTORY string")
    call sp_finalize(status=st)
    call check(st == SP_ERR_NOT_ACTIVE, "finalize without a session")
    call check(.not. sp_is_active(), "inactive before setup")

    call sp_setup(file_path="/nonexistent-dir/x.h5", label="x", status=st)
    call check(st == SP_OK, "setup with a bad directory still records")
    call sp_finalize(quiet=.true., status=st)
    call check(st == SP_ERR_NO_DIRECTORY, "finalize reports the missing directory")

    call sp_setup(file_path=trim(path), label="fortran test", metadata_detail=SP_METADATA_MINIMAL, &
                  capture_source=.false., compression=SP_COMPRESSION_NONE, status=st)
    call check(st == SP_OK, "setup")
    call check(sp_is_active(), "active after setup")
    call sp_setup(status=st)
    call check(st == SP_ERR_ALREADY_ACTIVE, "second setup")
    call sp_set_thread_name("fortran main", st)
    call check(st == SP_OK, "thread name")
    ! user metadata: the generic picks the type; a built-in key is refused
    call sp_set_metadata("problem_size", 64, st)
    call check(st == SP_OK, "metadata integer")
    call sp_set_metadata("cells", 1000000000000_8, st)
    call check(st == SP_OK, "metadata integer(8)")
    call sp_set_metadata("dt", 0.25d0, st)
    call check(st == SP_OK, "metadata real(8)")
    call sp_set_metadata("mesh", "ring  ", st)
    call check(st == SP_OK, "metadata text")
    call sp_set_metadata("mpi_size", 2, st)
    call check(st == SP_ERR_INVALID_ARGUMENT, "metadata built-in key")

    h = sp_region("handle", SP_LOC)
    h2 = sp_region("handle")
    call check(h == h2 .and. h /= SP_REGION_NONE, "same name, same handle")
    call sp_region_add_tag(h, "solver", st)
    call check(st == SP_OK, "region tag")
    call check(sp_region("") == SP_REGION_NONE, "empty name")
    call sp_reserve(h, 100_8, st)
    call check(st == SP_OK, "reserve")
    padded = "by name"
    do i = 1, 7
        call sp_begin(h)
        call sp_begin_name(padded)            ! trailing blanks are not part of the name
        call sp_end_name("by name", SP_LOC)
        call sp_end(h)
    end do
    call sp_begin_name("outer", file="test_fortran.F90", line=1)
    call sp_end(h, SP_LOC)                    ! mismatch: reported with this line
    call sp_end_name("outer")
    call sp_finalize(quiet=.true., status=st)
    call check(st == SP_OK, "finalize")
    call check(.not. sp_is_active(), "inactive after finalize")
    call sp_begin(h)                          ! no-ops now
    call sp_end(h)

    if (.not. ok) error stop "test_fortran: failed"
    print '(a)', "test_fortran: module checks passed"

contains

    subroutine check(condition, what)
        logical, intent(in) :: condition
        character(len=*), intent(in) :: what
        if (.not. condition) then
            print '(2a)', "test_fortran: FAILED: ", what
            ok = .false.
        end if
    end subroutine
end program test_fortran
