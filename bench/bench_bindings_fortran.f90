! The Fortran side of bench_bindings: n handle pairs, as a Fortran program writes them.
subroutine bench_fortran_pairs(region, n) bind(C, name="bench_fortran_pairs")
    use, intrinsic :: iso_c_binding, only: c_int, c_long
    use scope_profiler, only: sp_begin, sp_end
    implicit none
    integer(c_int), value :: region
    integer(c_long), value :: n
    integer(c_long) :: i
    do i = 1, n
        call sp_begin(region)
        call sp_end(region)
    end do
end subroutine
