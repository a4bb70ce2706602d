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
#include <stdlib.h>

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

__attribute__((noinline)) static int timed_MPI_Send(const void *buf, int count, MPI_Datatype type,
                                                    int dest, int tag, MPI_Comm comm) {
    int64_t b = bytes_of(count, type);
    sp_mpi_call_bytes(SP_CALL_SEND, b);
    if (sp_peer_on()) sp_peer_add(SP_CALL_SEND, comm, dest, tag, b);
    SP_BEGIN(SP_CALL_SEND);
    int rc = PMPI_Send(buf, count, type, dest, tag, comm);
    SP_END(SP_CALL_SEND);
    return rc;
}
SP_PUBLIC(MPI_Send,
          (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
          (buf, count, type, dest, tag, comm))

__attribute__((noinline)) static int timed_MPI_Recv(void *buf, int count, MPI_Datatype type,
                                                    int source, int tag, MPI_Comm comm,
                                                    MPI_Status *status) {
    int64_t b = bytes_of(count, type);
    sp_mpi_call_bytes(SP_CALL_RECV, b);
    MPI_Status own;
    sp_peer_record *rec = receiving(SP_CALL_RECV, comm, source, tag, b, &status, &own);
    SP_BEGIN(SP_CALL_RECV);
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    SP_END(SP_CALL_RECV);
    note_status(rec, status, rc);
    return rc;
}
SP_PUBLIC(MPI_Recv,
          (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
           MPI_Status *status),
          (buf, count, type, source, tag, comm, status))

/* Isend and Irecv: the record takes the new request's serial. */
#define NONBLOCKING(name, call, buf_const)                                                         \
    __attribute__((noinline)) static int timed_##name(buf_const void *buf, int count,              \
                                                      MPI_Datatype type, int peer, int tag,        \
                                                      MPI_Comm comm, MPI_Request *request) {       \
        int64_t b = bytes_of(count, type);                                                         \
        sp_mpi_call_bytes(call, b);                                                                \
        sp_peer_record *rec = sp_peer_on() ? sp_peer_add(call, comm, peer, tag, b) : NULL;         \
        SP_BEGIN(call);                                                                            \
        int rc = P##name(buf, count, type, peer, tag, comm, request);                              \
        SP_END(call);                                                                              \
        if (rec && rc == MPI_SUCCESS) rec->aux = sp_peer_request(*request, rec->comm);             \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name,                                                                                \
              (buf_const void *buf, int count, MPI_Datatype type, int peer, int tag,               \
               MPI_Comm comm, MPI_Request *request),                                               \
              (buf, count, type, peer, tag, comm, request))
#define SP_NOCONST
NONBLOCKING(MPI_Isend, SP_CALL_ISEND, const)
NONBLOCKING(MPI_Irecv, SP_CALL_IRECV, SP_NOCONST)

__attribute__((noinline)) static int
timed_MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Status *status) {
    int64_t b = bytes_of(sendcount, sendtype) + bytes_of(recvcount, recvtype);
    sp_mpi_call_bytes(SP_CALL_SENDRECV, b);
    MPI_Status own;
    sp_peer_record *rec = receiving(SP_CALL_SENDRECV, comm, dest, sendtag,
                                    bytes_of(sendcount, sendtype), &status, &own);
    SP_BEGIN(SP_CALL_SENDRECV);
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, status);
    SP_END(SP_CALL_SENDRECV);
    note_status(rec, status, rc);
    return rc;
}
SP_PUBLIC(MPI_Sendrecv,
          (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
           void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
           MPI_Comm comm, MPI_Status *status),
          (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
           recvtag, comm, status))

__attribute__((noinline)) static int
timed_MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    int64_t b = bytes_of(count, type);
    sp_mpi_call_bytes(SP_CALL_SENDRECV_REPLACE, 2 * b);
    MPI_Status own;
    sp_peer_record *rec =
        receiving(SP_CALL_SENDRECV_REPLACE, comm, dest, sendtag, b, &status, &own);
    SP_BEGIN(SP_CALL_SENDRECV_REPLACE);
    int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
    SP_END(SP_CALL_SENDRECV_REPLACE);
    note_status(rec, status, rc);
    return rc;
}
SP_PUBLIC(MPI_Sendrecv_replace,
          (void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
           MPI_Comm comm, MPI_Status *status),
          (buf, count, type, dest, sendtag, source, recvtag, comm, status))

/* --- completion ------------------------------------------------------------ */

/* The serials of the requests a Wait/Test is given, looked up before the call
 * (completion sets the handles to MPI_REQUEST_NULL). */
typedef struct pending_set {
    int64_t serial[32];
    int32_t comm[32];
    uint64_t slot[32];
    int64_t *serials;
    int32_t *comms;
    uint64_t *slots;
    MPI_Status own[32];
    MPI_Status *statuses; /* ours when the caller passed MPI_STATUSES_IGNORE */
    int count;
    int single; /* Wait, Waitany, Test, Testany: one status, the completed request's */
} pending_set;

static int pending_open(pending_set *p, int count, const MPI_Request *requests, MPI_Status *given,
                        int single) {
    p->count = count > 0 && requests ? count : 0;
    p->serials = p->serial;
    p->comms = p->comm;
    p->slots = p->slot;
    p->statuses = given;
    p->single = single;
    int big = p->count > 32;
    if (big) {
        p->serials = malloc((size_t)p->count * sizeof *p->serials);
        p->comms = malloc((size_t)p->count * sizeof *p->comms);
        p->slots = malloc((size_t)p->count * sizeof *p->slots);
    }
    if (given == (single ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE))
        p->statuses = big && !single ? malloc((size_t)p->count * sizeof *p->statuses) : p->own;
    if (!p->serials || !p->comms || !p->slots || (p->count && !p->statuses)) return 0;
    for (int i = 0; i < p->count; i++)
        p->serials[i] = sp_peer_find(requests[i], &p->comms[i], &p->slots[i]);
    return 1;
}

static void pending_close(pending_set *p, const MPI_Status *given) {
    if (p->serials != p->serial) free(p->serials);
    if (p->comms != p->comm) free(p->comms);
    if (p->slots != p->slot) free(p->slots);
    if (p->statuses != given && p->statuses != p->own) free(p->statuses);
}

/* Request i completed: it goes into rec's completions. */
static void completed(sp_peer_record *rec, pending_set *p, int i) {
    if (i < 0 || i >= p->count || p->serials[i] <= 0) return;
    sp_peer_complete(rec, p->serials[i], p->comms[i], &p->statuses[p->single ? 0 : i]);
    sp_peer_drop(p->slots[i]);
}

/* A completion call over `count` requests: records which completed. */
#define COMPLETION(name, call, count, requests, stat_arg, single, finish, params, args)            \
    __attribute__((noinline)) static int timed_##name params {                                     \
        pending_set p;                                                                             \
        sp_peer_record *rec = NULL;                                                                \
        MPI_Status *given = stat_arg;                                                              \
        int ok = 0;                                                                                \
        if (sp_peer_on()) {                                                                        \
            ok = pending_open(&p, count, requests, given, single);                                 \
            rec = sp_peer_add(call, MPI_COMM_NULL, SP_PEER_NONE, SP_PEER_NONE, 0);                 \
            if (ok)                                                                                \
                stat_arg = p.statuses;                                                             \
            else                                                                                   \
                pending_close(&p, given);                                                          \
        }                                                                                          \
        SP_BEGIN(call);                                                                            \
        int rc = P##name args;                                                                     \
        SP_END(call);                                                                              \
        if (ok) {                                                                                  \
            if (rc == MPI_SUCCESS) finish;                                                         \
            pending_close(&p, given);                                                              \
        }                                                                                          \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name, params, args)

#define EVERY(cond)                                                                                \
    for (int i = 0; (cond) && i < p.count; i++)                                                    \
    completed(rec, &p, i)

COMPLETION(MPI_Wait, SP_CALL_WAIT, 1, request, status, 1, EVERY(1),
           (MPI_Request * request, MPI_Status *status), (request, status))
COMPLETION(MPI_Waitall, SP_CALL_WAITALL, count, requests, statuses, 0, EVERY(1),
           (int count, MPI_Request requests[], MPI_Status statuses[]), (count, requests, statuses))
COMPLETION(MPI_Waitany, SP_CALL_WAITANY, count, requests, status, 1,
           completed(rec, &p, *index != MPI_UNDEFINED ? *index : -1),
           (int count, MPI_Request requests[], int *index, MPI_Status *status),
           (count, requests, index, status))
COMPLETION(MPI_Test, SP_CALL_TEST, 1, request, status, 1, EVERY(*flag),
           (MPI_Request * request, int *flag, MPI_Status *status), (request, flag, status))
COMPLETION(MPI_Testall, SP_CALL_TESTALL, count, requests, statuses, 0, EVERY(*flag),
           (int count, MPI_Request requests[], int *flag, MPI_Status statuses[]),
           (count, requests, flag, statuses))
COMPLETION(MPI_Testany, SP_CALL_TESTANY, count, requests, status, 1,
           completed(rec, &p, *flag &&*index != MPI_UNDEFINED ? *index : -1),
           (int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status),
           (count, requests, index, flag, status))
COMPLETION(MPI_Testsome, SP_CALL_TESTSOME, incount, requests, statuses, 0,
           for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
               completed(rec, &p, indices[k]),
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
