! scope_profiler_mpi: sp_mpi_setup for Fortran MPI programs. Link with
! -lscope_profiler_mpi_fortran (it brings the serial module's library).
!
!     use mpi            ! or: use mpi_f08
!     use scope_profiler
!     use scope_profiler_mpi
!     call MPI_Init(ierr)
!     call sp_mpi_setup(MPI_COMM_WORLD, label="run")   ! collective
!     ...
!     call sp_finalize()                              ! collective
!     call MPI_Finalize(ierr)
!
! The communicator may be an integer handle (use mpi, mpif.h) or a
! type(MPI_Comm) (use mpi_f08); it is duplicated. The other arguments are
! those of sp_setup.
module scope_profiler_mpi
    use, intrinsic :: iso_c_binding
    use scope_profiler, only: sp_f_setup_args, sp_f_make_setup_args
#ifdef SP_HAVE_MPI_F08
    use mpi_f08, only: MPI_Comm
#endif
    implicit none
    private
    public :: sp_mpi_setup, sp_mpi_rank

    interface sp_mpi_setup
        module procedure sp_mpi_setup_integer
#ifdef SP_HAVE_MPI_F08
        module procedure sp_mpi_setup_f08
#endif
    end interface

    interface
        function c_mpi_setup(args, comm) bind(C, name="sp_f_mpi_setup") result(status)
            import :: c_int, sp_f_setup_args
            type(sp_f_setup_args), intent(in) :: args
            integer(c_int), value :: comm
            integer(c_int) :: status
        end function
        function c_mpi_rank() bind(C, name="sp_mpi_rank") result(rank)
            import :: c_int
            integer(c_int) :: rank
        end function
    end interface

contains

    subroutine sp_mpi_setup_integer(comm, file_path, label, metadata_detail, capture_source, &
                                    disable, compression, compression_level, clock, status)
        integer, intent(in) :: comm
        character(kind=c_char, len=*), intent(in), target, optional :: file_path, label
        integer, intent(in), optional :: metadata_detail, compression, compression_level, clock
        logical, intent(in), optional :: capture_source, disable
        integer, intent(out), optional :: status
        integer :: st
        st = c_mpi_setup(sp_f_make_setup_args(file_path, label, metadata_detail, capture_source, &
                                              disable, compression, compression_level, clock), comm)
        if (present(status)) status = st
    end subroutine

#ifdef SP_HAVE_MPI_F08
    subroutine sp_mpi_setup_f08(comm, file_path, label, metadata_detail, capture_source, &
                                disable, compression, compression_level, clock, status)
        type(MPI_Comm), intent(in) :: comm
        character(kind=c_char, len=*), intent(in), target, optional :: file_path, label
        integer, intent(in), optional :: metadata_detail, compression, compression_level, clock
        logical, intent(in), optional :: capture_source, disable
        integer, intent(out), optional :: status
        call sp_mpi_setup_integer(comm%MPI_VAL, file_path, label, metadata_detail, &
                                  capture_source, disable, compression, compression_level, &
                                  clock, status)
    end subroutine
#endif

    !> This process's rank in the profiling communicator (0 without MPI).
    integer function sp_mpi_rank()
        sp_mpi_rank = c_mpi_rank()
    end function
end module scope_profiler_mpi
