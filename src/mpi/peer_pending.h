/*
 * The requests a Wait/Test call is given, looked up in the pending-request
 * table before the call (completion sets the handles to MPI_REQUEST_NULL),
 * and the statuses the call fills in: shared by the C wrappers
 * (pmpi_calls.c) and the Fortran ones (fortran_calls.c, which hands in the
 * C handles of its Fortran requests).
 */
#ifndef SP_MPI_PEER_PENDING_H
#define SP_MPI_PEER_PENDING_H

#include <mpi.h>

#include "mpi/mpi_calls.h"
#include "mpi/peer_records.h"

enum { SP_PENDING_INLINE = 32 };

typedef struct sp_peer_pending {
    int64_t serial[SP_PENDING_INLINE];
    int32_t comm[SP_PENDING_INLINE];
    uint64_t slot[SP_PENDING_INLINE]; /* the requests' keys (sp_peer_find) */
    int64_t *serials;
    int32_t *comms;
    uint64_t *slots;
    MPI_Status own[SP_PENDING_INLINE];
    MPI_Status *statuses; /* ours when the caller passed MPI_STATUS(ES)_IGNORE */
    int count;
    int single; /* Wait, Waitany, Test, Testany: one status, the completed request's */
} sp_peer_pending;

/* Looks up `count` requests; `given` is the caller's status argument. Returns
 * 0 when out of memory (then sp_peer_pending_close it, and record nothing). */
SP_MPI_SHARED int sp_peer_pending_open(sp_peer_pending *p, int count, const MPI_Request *requests,
                                       MPI_Status *given, int single);
SP_MPI_SHARED void sp_peer_pending_close(sp_peer_pending *p, const MPI_Status *given);

/* Request i completed: it goes into rec's completions, with its status
 * (under sp_peer_lock, held over all of one call's completions). */
SP_MPI_SHARED void sp_peer_pending_done(sp_peer_record *rec, sp_peer_pending *p, int i);

#endif
