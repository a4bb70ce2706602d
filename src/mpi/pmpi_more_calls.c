/*
 * The MPI calls wrapped since issue 24 (scope-profiler run): the
 * v-collectives, completion tests, probes, one-sided communication and
 * MPI-IO. Bytes follow pmpi_calls.c: what this rank contributes (a
 * v-collective's block of this rank, or all its blocks for Alltoallv and the
 * whole vector for Reduce_scatter, as Alltoall and Reduce count), the origin
 * buffer of a one-sided call, the buffer of a file access; tests, probes,
 * fences, locks and opening a file move none. docs/run.md has the table.
 */
#include <mpi.h>

#include "mpi/pmpi_wrap.h"

/* A gathering v-collective's block of this rank (in place: its recvcounts entry). */
static int64_t gatherv_bytes(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    if (sendbuf != MPI_IN_PLACE) return bytes_of(sendcount, sendtype);
    return recvcounts ? bytes_of(recvcounts[comm_rank(comm)], recvtype) : 0;
}

SP_COLLECTIVE(MPI_Allgatherv, SP_CALL_ALLGATHERV,
              gatherv_bytes(sendbuf, sendcount, sendtype, recvcounts, recvtype, comm), -1,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))

SP_COLLECTIVE(MPI_Gatherv, SP_CALL_GATHERV,
              gatherv_bytes(sendbuf, sendcount, sendtype, recvcounts, recvtype, comm), root,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))

SP_COLLECTIVE(MPI_Scatterv, SP_CALL_SCATTERV,
              recvbuf == MPI_IN_PLACE
                  ? (sendcounts ? bytes_of(sendcounts[comm_rank(comm)], sendtype) : 0)
                  : bytes_of(recvcount, recvtype),
              root,
              (const void *sendbuf, const int sendcounts[], const int displs[],
               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm),
              (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))

SP_COLLECTIVE(MPI_Alltoallv, SP_CALL_ALLTOALLV,
              sendbuf == MPI_IN_PLACE ? counts_bytes(recvcounts, recvtype, comm)
                                      : counts_bytes(sendcounts, sendtype, comm),
              -1,
              (const void *sendbuf, const int sendcounts[], const int sdispls[],
               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm),
              (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
               comm))

SP_COLLECTIVE(MPI_Reduce_scatter, SP_CALL_REDUCE_SCATTER, counts_bytes(recvcounts, type, comm), -1,
              (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
               MPI_Op op, MPI_Comm comm),
              (sendbuf, recvbuf, recvcounts, type, op, comm))

SP_WRAPPER(MPI_Probe, SP_CALL_PROBE, 0, (int source, int tag, MPI_Comm comm, MPI_Status *status),
           (source, tag, comm, status))

SP_WRAPPER(MPI_Iprobe, SP_CALL_IPROBE, 0,
           (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status),
           (source, tag, comm, flag, status))

SP_WRAPPER(MPI_Put, SP_CALL_PUT, bytes_of(origin_count, origin_type),
           (const void *origin, int origin_count, MPI_Datatype origin_type, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win),
           (origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
            win))

SP_WRAPPER(MPI_Get, SP_CALL_GET, bytes_of(origin_count, origin_type),
           (void *origin, int origin_count, MPI_Datatype origin_type, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win),
           (origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
            win))

SP_WRAPPER(MPI_Accumulate, SP_CALL_ACCUMULATE, bytes_of(origin_count, origin_type),
           (const void *origin, int origin_count, MPI_Datatype origin_type, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op,
            MPI_Win win),
           (origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
            op, win))

SP_WRAPPER(MPI_Win_fence, SP_CALL_WIN_FENCE, 0, (int assert_, MPI_Win win), (assert_, win))

SP_WRAPPER(MPI_Win_lock, SP_CALL_WIN_LOCK, 0, (int lock_type, int rank, int assert_, MPI_Win win),
           (lock_type, rank, assert_, win))

SP_WRAPPER(MPI_Win_unlock, SP_CALL_WIN_UNLOCK, 0, (int rank, MPI_Win win), (rank, win))

SP_WRAPPER(MPI_File_open, SP_CALL_FILE_OPEN, 0,
           (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh),
           (comm, filename, amode, info, fh))

SP_WRAPPER(MPI_File_close, SP_CALL_FILE_CLOSE, 0, (MPI_File * fh), (fh))

/* File accesses: (fh, buf, count, type, status-or-request) and the same after an offset. */
#define SP_FILE_ACCESS(name, call, buf_const, last)                                                \
    SP_WRAPPER(name, call, bytes_of(count, type),                                                  \
               (MPI_File fh, buf_const void *buf, int count, MPI_Datatype type, last),             \
               (fh, buf, count, type, tail))
#define SP_FILE_ACCESS_AT(name, call, buf_const, last)                                             \
    SP_WRAPPER(                                                                                    \
        name, call, bytes_of(count, type),                                                         \
        (MPI_File fh, MPI_Offset offset, buf_const void *buf, int count, MPI_Datatype type, last), \
        (fh, offset, buf, count, type, tail))
#define SP_NOCONST

SP_FILE_ACCESS(MPI_File_read, SP_CALL_FILE_READ, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS_AT(MPI_File_read_at, SP_CALL_FILE_READ_AT, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_read_all, SP_CALL_FILE_READ_ALL, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS_AT(MPI_File_read_at_all, SP_CALL_FILE_READ_AT_ALL, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_read_shared, SP_CALL_FILE_READ_SHARED, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_read_ordered, SP_CALL_FILE_READ_ORDERED, SP_NOCONST, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_iread, SP_CALL_FILE_IREAD, SP_NOCONST, MPI_Request *tail)
SP_FILE_ACCESS_AT(MPI_File_iread_at, SP_CALL_FILE_IREAD_AT, SP_NOCONST, MPI_Request *tail)
SP_FILE_ACCESS(MPI_File_write, SP_CALL_FILE_WRITE, const, MPI_Status *tail)
SP_FILE_ACCESS_AT(MPI_File_write_at, SP_CALL_FILE_WRITE_AT, const, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_write_all, SP_CALL_FILE_WRITE_ALL, const, MPI_Status *tail)
SP_FILE_ACCESS_AT(MPI_File_write_at_all, SP_CALL_FILE_WRITE_AT_ALL, const, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_write_shared, SP_CALL_FILE_WRITE_SHARED, const, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_write_ordered, SP_CALL_FILE_WRITE_ORDERED, const, MPI_Status *tail)
SP_FILE_ACCESS(MPI_File_iwrite, SP_CALL_FILE_IWRITE, const, MPI_Request *tail)
SP_FILE_ACCESS_AT(MPI_File_iwrite_at, SP_CALL_FILE_IWRITE_AT, const, MPI_Request *tail)
