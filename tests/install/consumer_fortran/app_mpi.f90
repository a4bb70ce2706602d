! An MPI Fortran program built against the installed modules (mpi_f08).
program app_mpi
    use mpi_f08
    use scope_profiler
    use scope_profiler_mpi
    implicit none
    integer :: st
    call MPI_Init()
    call sp_mpi_setup(MPI_COMM_WORLD, disable=.true., status=st)
    call MPI_Finalize()
    if (st /= SP_OK) error stop "sp_mpi_setup"
    print '(a)', "installed MPI Fortran module: ok"
end program app_mpi
