/* The requests of a Wait/Test call (peer_pending.h). */
#include "mpi/peer_pending.h"

#include <stdlib.h>

int sp_peer_pending_open(sp_peer_pending *p, int count, const MPI_Request *requests,
                         MPI_Status *given, int single) {
    p->count = count > 0 && requests ? count : 0;
    p->serials = p->serial;
    p->comms = p->comm;
    p->slots = p->slot;
    p->statuses = given;
    p->single = single;
    int big = p->count > SP_PENDING_INLINE;
    if (big) {
        p->serials = malloc((size_t)p->count * sizeof *p->serials);
        p->comms = malloc((size_t)p->count * sizeof *p->comms);
        p->slots = malloc((size_t)p->count * sizeof *p->slots);
    }
    if (given == (single ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE))
        p->statuses = big && !single ? malloc((size_t)p->count * sizeof *p->statuses) : p->own;
    if (!p->serials || !p->comms || !p->slots || (p->count && !p->statuses)) return 0;
    sp_peer_lock();
    for (int i = 0; i < p->count; i++)
        p->serials[i] = sp_peer_find(requests[i], &p->comms[i], &p->slots[i]);
    sp_peer_unlock();
    return 1;
}

void sp_peer_pending_close(sp_peer_pending *p, const MPI_Status *given) {
    if (p->serials != p->serial) free(p->serials);
    if (p->comms != p->comm) free(p->comms);
    if (p->slots != p->slot) free(p->slots);
    if (p->statuses != given && p->statuses != p->own) free(p->statuses);
}

void sp_peer_pending_done(sp_peer_record *rec, sp_peer_pending *p, int i) {
    if (i < 0 || i >= p->count || p->serials[i] <= 0) return;
    sp_peer_complete(rec, p->serials[i], p->comms[i], &p->statuses[p->single ? 0 : i]);
    sp_peer_drop(p->slots[i], p->serials[i]);
}
