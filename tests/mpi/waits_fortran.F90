! Fortran MPI programs with known wait states, for check_waits.py under
! `scope-profiler run --functions` (issue 25): FLAVOUR 2 = use mpi (the
! mpi_NAME_ symbols mpif.h uses too), 3 = use mpi_f08 (mpi_NAME_f08_).
! The scenarios of waits_programs.c: n steps paced on the shared monotonic
! clock, a delay of 60 ms in `compute` (built with -finstrument-functions,
! named by its C binding) on one rank:
!   pingpong   pairs (0,1), (2,3): rank 1 computes before it takes the ping;
!   ring       Irecv left, Isend right, Waitall: rank 1 computes first;
!   anysource  rank 0 receives MPI_ANY_SOURCE/MPI_ANY_TAG, status ignored;
!   allreduce  the last rank computes before each MPI_Allreduce.
subroutine compute() bind(C, name="compute")
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    subroutine waits_busy_ms(ms) bind(C, name="waits_busy_ms")
      import :: c_int
      integer(c_int), value :: ms
    end subroutine waits_busy_ms
  end interface
  call waits_busy_ms(60_c_int)
end subroutine compute

program waits_fortran
#if FLAVOUR == 3
  use mpi_f08
#else
  use mpi
#endif
  use, intrinsic :: iso_c_binding, only: c_int64_t
  implicit none
  interface
    subroutine compute() bind(C, name="compute")
    end subroutine compute
    function waits_now_ns() bind(C, name="waits_now_ns") result(t)
      import :: c_int64_t
      integer(c_int64_t) :: t
    end function waits_now_ns
    subroutine waits_until(t) bind(C, name="waits_until")
      import :: c_int64_t
      integer(c_int64_t), value :: t
    end subroutine waits_until
  end interface
  integer, parameter :: n = 8
  integer(c_int64_t), parameter :: period = 160000000_c_int64_t
#if FLAVOUR == 3
  type(MPI_Request) :: req(2)
#else
  integer :: req(2)
#endif
  integer(c_int64_t) :: first
  integer :: ierr, rank, nprocs, i, right, left, peer, value
  character(len=32) :: scenario
  double precision :: out(16), in(16), x, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call get_command_argument(1, scenario)
  first = waits_now_ns() + 100000000_c_int64_t
  call MPI_Bcast(first, 1, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
  out = rank
  value = 0
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  peer = ieor(rank, 1)
  do i = 0, n - 1
    call waits_until(first + i * period)
    select case (trim(scenario))
    case ("pingpong")
      if (peer < nprocs) then
        if (mod(rank, 2) == 0) then
          call MPI_Send(value, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
          call MPI_Recv(value, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        else
          if (rank == 1) call compute()
          call MPI_Recv(value, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
          call MPI_Send(value, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
        end if
      end if
    case ("ring")
      if (rank == 1) call compute()
      call MPI_Irecv(in, 16, MPI_DOUBLE_PRECISION, left, i, MPI_COMM_WORLD, req(1), ierr)
      call MPI_Isend(out, 16, MPI_DOUBLE_PRECISION, right, i, MPI_COMM_WORLD, req(2), ierr)
      call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    case ("anysource")
      if (rank == 0) then
        call MPI_Recv(value, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
      else if (rank == 1) then
        call compute()
        call MPI_Send(value, 1, MPI_INTEGER, 0, i, MPI_COMM_WORLD, ierr)
      end if
    case ("allreduce")
      if (rank == nprocs - 1) call compute()
      x = rank
      call MPI_Allreduce(x, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    case default
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end select
  end do
  call MPI_Finalize(ierr)
end program waits_fortran
