/*
 * The common MPI calls through the PMPI interface, timed as regions named
 * after the call when recording is on (mpi/mpi_calls.h). Off, a wrapper is
 * one load and a predictable branch, then a tail call of the PMPI function:
 * the recording path is a separate function so that the off path saves no
 * registers.
 * Bytes: count × MPI_Type_size of the buffer this rank passes (both buffers
 * for MPI_Sendrecv; a receive counts its posted buffer); waits and the
 * barrier move none of their own. docs/parallel.md §5 has the table.
 */
#include <mpi.h>

#include "mpi/pmpi_wrap.h"

SP_WRAPPER(MPI_Send, SP_CALL_SEND, bytes_of(count, type),
           (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
           (buf, count, type, dest, tag, comm))

SP_WRAPPER(MPI_Recv, SP_CALL_RECV, bytes_of(count, type),
           (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
            MPI_Status *status),
           (buf, count, type, source, tag, comm, status))

SP_WRAPPER(MPI_Isend, SP_CALL_ISEND, bytes_of(count, type),
           (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
            MPI_Request *request),
           (buf, count, type, dest, tag, comm, request))

SP_WRAPPER(MPI_Irecv, SP_CALL_IRECV, bytes_of(count, type),
           (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
            MPI_Request *request),
           (buf, count, type, source, tag, comm, request))

SP_WRAPPER(MPI_Sendrecv, SP_CALL_SENDRECV,
           bytes_of(sendcount, sendtype) + bytes_of(recvcount, recvtype),
           (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
            void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
            MPI_Comm comm, MPI_Status *status),
           (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
            recvtag, comm, status))

SP_WRAPPER(MPI_Wait, SP_CALL_WAIT, 0, (MPI_Request * request, MPI_Status *status),
           (request, status))

SP_WRAPPER(MPI_Waitall, SP_CALL_WAITALL, 0,
           (int count, MPI_Request requests[], MPI_Status statuses[]), (count, requests, statuses))

SP_WRAPPER(MPI_Waitany, SP_CALL_WAITANY, 0,
           (int count, MPI_Request requests[], int *index, MPI_Status *status),
           (count, requests, index, status))

SP_WRAPPER(MPI_Bcast, SP_CALL_BCAST, bytes_of(count, type),
           (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
           (buf, count, type, root, comm))

SP_WRAPPER(MPI_Reduce, SP_CALL_REDUCE, bytes_of(count, type),
           (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
            MPI_Comm comm),
           (sendbuf, recvbuf, count, type, op, root, comm))

SP_WRAPPER(MPI_Allreduce, SP_CALL_ALLREDUCE, bytes_of(count, type),
           (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
            MPI_Comm comm),
           (sendbuf, recvbuf, count, type, op, comm))

SP_WRAPPER(MPI_Gather, SP_CALL_GATHER,
           block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype),
           (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm),
           (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

SP_WRAPPER(MPI_Allgather, SP_CALL_ALLGATHER,
           block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype),
           (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, MPI_Comm comm),
           (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))

SP_WRAPPER(MPI_Scatter, SP_CALL_SCATTER,
           block_bytes(recvbuf, recvcount, recvtype, sendcount, sendtype),
           (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm),
           (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

SP_WRAPPER(MPI_Alltoall, SP_CALL_ALLTOALL,
           block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype) * comm_size(comm),
           (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, MPI_Comm comm),
           (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))

SP_WRAPPER(MPI_Barrier, SP_CALL_BARRIER, 0, (MPI_Comm comm), (comm))
