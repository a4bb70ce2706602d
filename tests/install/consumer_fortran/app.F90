! A Fortran program built against the installed module: records, writes.
#include "scope_profiler.fh"
program app
    use scope_profiler
    implicit none
    character(len=256) :: path
    integer :: h, st
    call get_command_argument(1, path)
    call sp_setup(file_path=trim(path), status=st)
    if (st /= SP_OK) error stop "setup"
    h = sp_region("installed", SP_LOC)
    call sp_begin(h)
    call sp_end(h, SP_LOC)
    call sp_finalize(quiet=.true., status=st)
    if (st /= SP_OK) error stop "finalize"
    print '(a)', "installed Fortran module: ok"
end program app
