/*
 * The common MPI calls through the PMPI interface, timed as regions named
 * after the call when recording is on (mpi/mpi_calls.h): point-to-point,
 * completion and collective calls, the ones wait-state analysis matches
 * (issue 25). Off, a wrapper is one load and a predictable branch, then a
 * tail call of the PMPI function. Bytes: count × MPI_Type_size of the buffer
 * this rank passes (both buffers for MPI_Sendrecv; a receive counts its
 * posted buffer); waits and the barrier move none of their own
 * (docs/parallel.md §5 has the table). On the thread that started recording each also appends its
 * peer record (peer_records.h) before the call, and fills in what the call returned (the status's
 * source and tag, the request it created or completed) after.
 */
#include <mpi.h>

#include "mpi/peer_pending.h"
#include "mpi/pmpi_wrap.h"

/* The status a call fills in: the caller's, or ours when it passed none. */
static MPI_Status *status_for(MPI_Status *given, MPI_Status *own) {
    return given == MPI_STATUS_IGNORE ? own : given;
}

/* A receiving call's record, and the status it will fill in (ours when the
 * caller passed none); NULL when this thread keeps no peer data. */
static sp_peer_record *receiving(sp_mpi_call call, MPI_Comm comm, int peer, int tag, int64_t bytes,
                                 MPI_Status **status, MPI_Status *own) {
    if (!sp_peer_on()) return NULL;
    *status = status_for(*status, own);
    return sp_peer_add(call, comm, peer, tag, bytes);
}

static void note_status(sp_peer_record *rec, const MPI_Status *status, int rc) {
    if (!rec || rc != MPI_SUCCESS || status->MPI_SOURCE < 0) return;
    rec->source = sp_peer_world(rec->comm, status->MPI_SOURCE);
    rec->source_tag = status->MPI_TAG;
}

/* Send, Isend and Irecv: counted, their record, timed; `after` notes what
 * the call created (the request's serial). */
#define POINT_TO_POINT(name, call, after, params, args)                                            \
    __attribute__((noinline)) static int timed_##name params {                                     \
        int64_t b = bytes_of(count, type);                                                         \
        sp_mpi_call_bytes(call, b);                                                                \
        sp_peer_record *rec = sp_peer_on() ? sp_peer_add(call, comm, peer, tag, b) : NULL;         \
        SP_BEGIN(call);                                                                            \
        int rc = P##name args;                                                                     \
        SP_END(call);                                                                              \
        after;                                                                                     \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name, params, args)

#define NEW_REQUEST                                                                                \
    if (rec && rc == MPI_SUCCESS) rec->aux = sp_peer_request(*request, rec->comm)

POINT_TO_POINT(MPI_Send, SP_CALL_SEND, (void)rec,
               (const void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm),
               (buf, count, type, peer, tag, comm))
POINT_TO_POINT(MPI_Isend, SP_CALL_ISEND, NEW_REQUEST,
               (const void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                MPI_Request *request),
               (buf, count, type, peer, tag, comm, request))
POINT_TO_POINT(MPI_Irecv, SP_CALL_IRECV, NEW_REQUEST,
               (void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                MPI_Request *request),
               (buf, count, type, peer, tag, comm, request))

/* Recv, Sendrecv and Sendrecv_replace: the record (peer, tag and bytes `b`:
 * the receive's, or the send half's) takes the status's source and tag;
 * `counted` is the call's bytes (it may use b). */
#define RECEIVING(name, call, b_expr, counted, peer, tag, params, args)                            \
    __attribute__((noinline)) static int timed_##name params {                                     \
        int64_t b = b_expr;                                                                        \
        sp_mpi_call_bytes(call, counted);                                                          \
        MPI_Status own;                                                                            \
        sp_peer_record *rec = receiving(call, comm, peer, tag, b, &status, &own);                  \
        SP_BEGIN(call);                                                                            \
        int rc = P##name args;                                                                     \
        SP_END(call);                                                                              \
        note_status(rec, status, rc);                                                              \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name, params, args)

RECEIVING(MPI_Recv, SP_CALL_RECV, bytes_of(count, type), b, source, tag,
          (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
           MPI_Status *status),
          (buf, count, type, source, tag, comm, status))
RECEIVING(MPI_Sendrecv, SP_CALL_SENDRECV, bytes_of(sendcount, sendtype),
          b + bytes_of(recvcount, recvtype), dest, sendtag,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
           void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
           MPI_Comm comm, MPI_Status *status),
          (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
           recvtag, comm, status))
RECEIVING(MPI_Sendrecv_replace, SP_CALL_SENDRECV_REPLACE, bytes_of(count, type), 2 * b, dest,
          sendtag,
          (void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
           MPI_Comm comm, MPI_Status *status),
          (buf, count, type, dest, sendtag, source, recvtag, comm, status))

/* --- completion ------------------------------------------------------------ */

/* A completion call over `count` requests: records which completed. */
#define COMPLETION(name, call, count, requests, stat_arg, single, finish, params, args)            \
    __attribute__((noinline)) static int timed_##name params {                                     \
        sp_peer_pending p;                                                                         \
        sp_peer_record *rec = NULL;                                                                \
        MPI_Status *given = stat_arg;                                                              \
        int ok = 0;                                                                                \
        if (sp_peer_on()) {                                                                        \
            ok = sp_peer_pending_open(&p, count, requests, given, single);                         \
            rec = sp_peer_add(call, MPI_COMM_NULL, SP_PEER_NONE, SP_PEER_NONE, 0);                 \
            if (ok)                                                                                \
                stat_arg = p.statuses;                                                             \
            else                                                                                   \
                sp_peer_pending_close(&p, given);                                                  \
        }                                                                                          \
        SP_BEGIN(call);                                                                            \
        int rc = P##name args;                                                                     \
        SP_END(call);                                                                              \
        if (ok) {                                                                                  \
            if (rc == MPI_SUCCESS) { /* one call's completions stay together */                    \
                sp_peer_lock();                                                                    \
                finish;                                                                            \
                sp_peer_unlock();                                                                  \
            }                                                                                      \
            sp_peer_pending_close(&p, given);                                                      \
        }                                                                                          \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name, params, args)

#define EVERY(cond)                                                                                \
    for (int i = 0; (cond) && i < p.count; i++)                                                    \
    sp_peer_pending_done(rec, &p, i)

COMPLETION(MPI_Wait, SP_CALL_WAIT, 1, request, status, 1, EVERY(1),
           (MPI_Request * request, MPI_Status *status), (request, status))
COMPLETION(MPI_Waitall, SP_CALL_WAITALL, count, requests, statuses, 0, EVERY(1),
           (int count, MPI_Request requests[], MPI_Status statuses[]), (count, requests, statuses))
COMPLETION(MPI_Waitany, SP_CALL_WAITANY, count, requests, status, 1,
           sp_peer_pending_done(rec, &p, *index != MPI_UNDEFINED ? *index : -1),
           (int count, MPI_Request requests[], int *index, MPI_Status *status),
           (count, requests, index, status))
COMPLETION(MPI_Test, SP_CALL_TEST, 1, request, status, 1, EVERY(*flag),
           (MPI_Request * request, int *flag, MPI_Status *status), (request, flag, status))
COMPLETION(MPI_Testall, SP_CALL_TESTALL, count, requests, statuses, 0, EVERY(*flag),
           (int count, MPI_Request requests[], int *flag, MPI_Status statuses[]),
           (count, requests, flag, statuses))
COMPLETION(MPI_Testany, SP_CALL_TESTANY, count, requests, status, 1,
           sp_peer_pending_done(rec, &p, *flag &&*index != MPI_UNDEFINED ? *index : -1),
           (int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status),
           (count, requests, index, flag, status))
COMPLETION(MPI_Testsome, SP_CALL_TESTSOME, incount, requests, statuses, 0,
           for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
               sp_peer_pending_done(rec, &p, indices[k]),
           (int incount, MPI_Request requests[], int *outcount, int indices[],
            MPI_Status statuses[]),
           (incount, requests, outcount, indices, statuses))

/* --- collectives ----------------------------------------------------------- */

SP_COLLECTIVE(MPI_Barrier, SP_CALL_BARRIER, 0, -1, (MPI_Comm comm), (comm))

SP_COLLECTIVE(MPI_Bcast, SP_CALL_BCAST, bytes_of(count, type), root,
              (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
              (buf, count, type, root, comm))

SP_COLLECTIVE(MPI_Reduce, SP_CALL_REDUCE, bytes_of(count, type), root,
              (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm),
              (sendbuf, recvbuf, count, type, op, root, comm))

SP_COLLECTIVE(MPI_Allreduce, SP_CALL_ALLREDUCE, bytes_of(count, type), -1,
              (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm),
              (sendbuf, recvbuf, count, type, op, comm))

SP_COLLECTIVE(MPI_Gather, SP_CALL_GATHER,
              block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype), root,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

SP_COLLECTIVE(MPI_Allgather, SP_CALL_ALLGATHER,
              block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype), -1,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))

SP_COLLECTIVE(MPI_Scatter, SP_CALL_SCATTER,
              block_bytes(recvbuf, recvcount, recvtype, sendcount, sendtype), root,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

SP_COLLECTIVE(MPI_Alltoall, SP_CALL_ALLTOALL,
              block_bytes(sendbuf, sendcount, sendtype, recvcount, recvtype) * comm_size(comm), -1,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
