! SP_LOC in a source whose path is far longer than a free-form line: built
! under -std=f2008 -Werror with only the flags the library's target gives
! (fortran.cmake copies it into a deep directory of the build tree).
#include "scope_profiler.fh"
program sp_loc_deep
    use scope_profiler
    implicit none
    integer :: h
    character(len=4096) :: path
    call get_command_argument(1, path)
    call sp_setup(file_path=trim(path), capture_source=.true.)
    h = sp_region("deep", SP_LOC)
    call sp_begin(h)
    call sp_end(h, SP_LOC)
    call sp_finalize(quiet=.true.)
end program sp_loc_deep
