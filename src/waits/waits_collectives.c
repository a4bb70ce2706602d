/*
 * Waits at collectives (docs/parallel.md §6.2): the calls of one collective
 * operation (same communicator, same sequence number there; without peer
 * data the k-th call of the same collective on every rank, MPI_COMM_WORLD
 * assumed), then N x N: each rank waits from its entry to the last entry;
 * 1 to N: the others wait for the root; N to 1: the root waits for the last.
 */
#include <stdlib.h>

#include "waits/waits_internal.h"

typedef struct entry {
    int64_t comm, seq; /* without peer data: the region and the k-th call */
    uint32_t rank;
    int64_t span;
    int64_t root; /* world rank, -1 none or unknown */
    wt_class cls;
} entry;

static int compare_entries(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static const wt_span *span_of(const wt_ctx *c, const entry *e) {
    return &c->ranks[e->rank].spans[e->span];
}

static sp_status one_operation(wt_ctx *c, const entry *e, size_t n) {
    c->out->collectives++;
    size_t last = 0, root = n;
    for (size_t i = 0; i < n; i++) {
        if (e[i].root >= 0 && e[i].rank == (uint32_t)e[i].root) root = i;
        if (span_of(c, &e[i])->start > span_of(c, &e[last])->start) last = i;
    }
    sp_status st = SP_OK;
    if (e[0].cls == WT_ALL) {
        int64_t l = span_of(c, &e[last])->start;
        for (size_t i = 0; !st && i < n; i++) {
            const wt_span *s = span_of(c, &e[i]);
            st = sp_wt_add(c, SP_WAIT_COLLECTIVE, e[i].rank, s, e[last].rank,
                           span_of(c, &e[last])->thread, s->start,
                           (l < s->end ? l : s->end) - s->start);
        }
        return st;
    }
    if (root == n) {
        c->out->unmatched_collectives++; /* the root is not among the calls */
        return SP_OK;
    }
    int64_t r0 = span_of(c, &e[root])->start;
    if (e[0].cls == WT_FROM_ROOT) {
        for (size_t i = 0; !st && i < n; i++) {
            const wt_span *s = span_of(c, &e[i]);
            if (i != root)
                st = sp_wt_add(c, SP_WAIT_LATE_BROADCAST, e[i].rank, s, e[root].rank,
                               span_of(c, &e[root])->thread, s->start,
                               (r0 < s->end ? r0 : s->end) - s->start);
        }
        return st;
    }
    size_t late = root;
    for (size_t i = 0; i < n; i++)
        if (i != root && (late == root || span_of(c, &e[i])->start > span_of(c, &e[late])->start))
            late = i;
    if (late == root) return SP_OK;
    const wt_span *s = span_of(c, &e[root]);
    int64_t l = span_of(c, &e[late])->start;
    return sp_wt_add(c, SP_WAIT_EARLY_REDUCE, e[root].rank, s, e[late].rank,
                     span_of(c, &e[late])->thread, s->start, (l < s->end ? l : s->end) - s->start);
}

/* Groups the sorted entries into operations of `size(comm)` calls each. */
static sp_status operations(wt_ctx *c, entry *e, size_t n,
                            int64_t (*size)(const wt_ctx *, int64_t)) {
    qsort(e, n, sizeof *e, compare_entries);
    sp_status st = SP_OK;
    for (size_t i = 0; !st && i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].comm == e[i].comm && e[j].seq == e[i].seq)
            j++;
        int consistent = (int64_t)(j - i) == size(c, e[i].comm);
        for (size_t k = i + 1; k < j; k++)
            consistent = consistent && e[k].rank != e[k - 1].rank && e[k].cls == e[i].cls;
        if (consistent)
            st = one_operation(c, e + i, j - i);
        else
            c->out->unmatched_collectives++;
        i = j;
    }
    return st;
}

static int64_t comm_size(const wt_ctx *c, int64_t global) {
    const sp_peer_table *t = c->peers;
    for (size_t i = 0; i < t->num_comms; i++)
        if (c->comm_global[i] == global) return t->comm_sizes[i];
    return -1;
}

static int64_t world_size(const wt_ctx *c, int64_t unused) {
    (void)unused;
    return c->num_ranks;
}

sp_status sp_wt_collectives(wt_ctx *c) {
    const sp_peer_table *t = c->peers;
    entry *e = malloc((t->n ? t->n : 1) * sizeof *e);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        wt_class cls = sp_wt_class_of(t->call_names[t->calls[i]]);
        if (c->span_of_peer[i] < 0 || (cls != WT_ALL && cls != WT_FROM_ROOT && cls != WT_TO_ROOT))
            continue;
        uint32_t r = (uint32_t)t->ranks[i];
        int64_t comm = sp_wt_comm(c, r, t->comms[i]);
        if (comm < 0) {
            c->out->unmatched_collectives++;
            continue;
        }
        e[n++] = (entry){
            comm, t->aux[i], r, c->span_of_peer[i] & 0xffffffff, cls == WT_ALL ? -1 : t->peers[i],
            cls};
    }
    sp_status st = operations(c, e, n, comm_size);
    free(e);
    return st;
}

sp_status sp_wt_collectives_by_order(wt_ctx *c) {
    size_t total = 0;
    for (uint32_t r = 0; r < c->num_ranks; r++)
        total += c->ranks[r].num_spans;
    entry *e = malloc((total ? total : 1) * sizeof *e);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    size_t n = 0;
    for (uint32_t r = 0; r < c->num_ranks; r++)
        for (size_t s = 0; s < c->ranks[r].num_spans; s++) {
            const wt_span *span = &c->ranks[r].spans[s];
            if (span->cls == WT_FROM_ROOT || span->cls == WT_TO_ROOT)
                c->out->unmatched_collectives++; /* the root is in the peer data only */
            else if (span->cls == WT_ALL)
                e[n++] = (entry){span->region, span->nth, r, (int64_t)s, -1, WT_ALL};
        }
    sp_status st = operations(c, e, n, world_size);
    free(e);
    return st;
}
