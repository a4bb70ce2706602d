! An unmodified Fortran MPI program (no scope-profiler calls) in three
! flavours: FLAVOUR 1 = mpif.h, 2 = use mpi, 3 = use mpi_f08. On 4 ranks
! each rank makes the calls check_profile.py expects (run_mpi.sh).
program unannotated
#if FLAVOUR == 3
  use mpi_f08
#elif FLAVOUR == 2
  use mpi
#endif
  implicit none
#if FLAVOUR == 1
  include 'mpif.h'
#endif
#if FLAVOUR == 3
  type(MPI_Win) :: win
  type(MPI_File) :: fh
  type(MPI_Status) :: status
#else
  integer :: win, fh
  integer :: status(MPI_STATUS_SIZE)
#endif
  integer :: ierr, rank, nprocs, i
  integer :: counts(4), displs(4)
  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp
  integer(kind=MPI_OFFSET_KIND) :: offset
  double precision :: a(100), b(400)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  a = rank
  do i = 1, 4
    counts(i) = i
    displs(i) = (i - 1) * i / 2
  end do
  ! pairs: even ranks send 7 doubles to the next odd one
  if (mod(rank, 2) == 0) then
    call MPI_Send(a, 7, MPI_DOUBLE_PRECISION, rank + 1, 1, MPI_COMM_WORLD, ierr)
  else
    call MPI_Recv(b, 7, MPI_DOUBLE_PRECISION, rank - 1, 1, MPI_COMM_WORLD, status, ierr)
  end if
  call MPI_Allreduce(a, b, 10, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allgatherv(a, rank + 1, MPI_DOUBLE_PRECISION, b, counts, displs, &
                      MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  winsize = 800
  call MPI_Win_create(a, winsize, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(b, 5, MPI_DOUBLE_PRECISION, mod(rank + 1, nprocs), disp, 5, &
               MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_File_open(MPI_COMM_WORLD, 'fortran_io.dat', MPI_MODE_CREATE + MPI_MODE_WRONLY, &
                     MPI_INFO_NULL, fh, ierr)
  offset = rank * 800
  call MPI_File_write_at_all(fh, offset, a, 100, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'fortran done'
  call MPI_Finalize(ierr)
end program unannotated
