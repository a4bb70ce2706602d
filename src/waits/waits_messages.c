/*
 * Point-to-point wait states (docs/parallel.md §6.1): the peer records lined
 * up with the call events (per rank and thread), requests followed to the Wait/Test that completed
 * them, and sends paired with receives in order per (communicator, source,
 * destination, tag). A (rank, call) whose record count differs from its event
 * count is left out (counted as unaligned), never paired by guess.
 */
#include <stdlib.h>
#include <string.h>

#include "waits/waits_internal.h"

void sp_wt_peers_free(wt_ctx *c) {
    for (uint32_t r = 0; c->ranks && r < c->num_ranks; r++) {
        free(c->ranks[r].done_by);
        free(c->ranks[r].done_row);
    }
    free(c->span_of_peer);
    free(c->comm_global);
}

/* A record or a span, keyed by (rank, thread, call); `index` keeps call
 * order within a key (records are appended in call order, spans sorted by
 * thread and start). */
typedef struct lane_item {
    int64_t rank, thread, call;
    size_t index;
} lane_item;

static int compare_items(const void *a, const void *b) {
    const lane_item *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->call != y->call) return x->call < y->call ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The model thread of record i: its OS thread id looked up in the thread
 * table of its rank; the rank's main thread when the file says no more. */
static int64_t thread_of(const wt_ctx *c, const sp_peer_table *t, size_t i) {
    const sp_model *m = c->m;
    int64_t r = t->ranks[i];
    if (t->threads && m->threads)
        for (size_t k = 0; k < m->num_threads; k++)
            if (m->threads[k].rank == (uint32_t)r && m->threads[k].native_id == t->threads[i])
                return m->threads[k].index;
    return c->ranks[r].main_thread;
}

static int same_key(const lane_item *a, const lane_item *b) {
    return a->rank == b->rank && a->thread == b->thread && a->call == b->call;
}

/* Pairs the k-th record of a call on a thread of a rank with the k-th event
 * of its region there; a key whose counts differ is left out (unaligned). */
static sp_status align(wt_ctx *c, const sp_peer_table *t) {
    const sp_model *m = c->m;
    size_t nr = c->num_ranks, spans = 0;
    for (size_t r = 0; r < nr; r++)
        spans += c->ranks[r].num_spans;
    int64_t *call_of = malloc((m->num_regions ? m->num_regions : 1) * sizeof *call_of);
    lane_item *recs = malloc((t->n ? t->n : 1) * sizeof *recs);
    lane_item *evs = malloc((spans ? spans : 1) * sizeof *evs);
    c->span_of_peer = malloc((t->n ? t->n : 1) * sizeof *c->span_of_peer);
    if (!call_of || !recs || !evs || !c->span_of_peer) {
        free(call_of);
        free(recs);
        free(evs);
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t g = 0; g < m->num_regions; g++) {
        call_of[g] = -1;
        for (size_t k = 0; k < t->num_call_names; k++)
            if (strcmp(m->region_names[g], t->call_names[k]) == 0) call_of[g] = (int64_t)k;
    }
    size_t nrec = 0, nev = 0;
    for (size_t i = 0; i < t->n; i++) {
        c->span_of_peer[i] = -1;
        if (t->ranks[i] >= (int64_t)nr) {
            c->out->unaligned_calls++;
            continue;
        }
        recs[nrec++] = (lane_item){t->ranks[i], thread_of(c, t, i), t->calls[i], i};
    }
    for (size_t r = 0; r < nr; r++)
        for (size_t s = 0; s < c->ranks[r].num_spans; s++) {
            const wt_span *sp = &c->ranks[r].spans[s];
            if (call_of[sp->region] >= 0)
                evs[nev++] = (lane_item){(int64_t)r, sp->thread, call_of[sp->region], s};
        }
    qsort(recs, nrec, sizeof *recs, compare_items);
    qsort(evs, nev, sizeof *evs, compare_items);
    for (size_t a = 0, e = 0; a < nrec;) {
        size_t a_end = a;
        while (a_end < nrec && same_key(&recs[a_end], &recs[a]))
            a_end++;
        while (e < nev && compare_items(&evs[e], &recs[a]) < 0 && !same_key(&evs[e], &recs[a]))
            e++;
        size_t e_end = e;
        while (e_end < nev && same_key(&evs[e_end], &recs[a]))
            e_end++;
        if (e_end - e != a_end - a) {
            c->out->unaligned_calls += a_end - a;
        } else {
            for (size_t k = 0; k < a_end - a; k++) {
                int64_t r = recs[a + k].rank;
                size_t sp = evs[e + k].index, row = recs[a + k].index;
                c->span_of_peer[row] = (r << 32) | (int64_t)sp;
                c->ranks[r].spans[sp].peer = (int64_t)row;
            }
        }
        a = a_end;
        e = e_end;
    }
    free(call_of);
    free(recs);
    free(evs);
    return SP_OK;
}

/* Each rank's requests: which completion span finished them. */
static sp_status follow_requests(wt_ctx *c, const sp_peer_table *t) {
    for (uint32_t r = 0; r < c->num_ranks; r++)
        c->ranks[r].completion_base = -1;
    for (size_t j = t->num_completions; j-- > 0;)
        if (t->c_ranks[j] >= 0 && t->c_ranks[j] < (int64_t)c->num_ranks)
            c->ranks[t->c_ranks[j]].completion_base = (int64_t)j;
    for (size_t i = 0; i < t->n; i++) {
        int64_t r = t->ranks[i];
        const char *name = t->call_names[t->calls[i]];
        if (r >= (int64_t)c->num_ranks ||
            (sp_wt_class_of(name) != WT_ISEND && sp_wt_class_of(name) != WT_IRECV))
            continue;
        c->ranks[r].max_serial++; /* serials are 1, 2, ... per rank: larger ones are damage */
    }
    for (uint32_t r = 0; r < c->num_ranks; r++) {
        wt_rank *wr = &c->ranks[r];
        size_t n = (size_t)wr->max_serial + 1;
        wr->done_by = malloc(n * sizeof *wr->done_by);
        wr->done_row = malloc(n * sizeof *wr->done_row);
        if (!wr->done_by || !wr->done_row) return SP_ERR_OUT_OF_MEMORY;
        for (size_t s = 0; s < n; s++)
            wr->done_by[s] = wr->done_row[s] = -1;
    }
    for (size_t i = 0; i < t->n; i++) {
        if (c->span_of_peer[i] < 0) continue;
        int64_t r = t->ranks[i];
        wt_rank *wr = &c->ranks[r];
        if (sp_wt_class_of(t->call_names[t->calls[i]]) != WT_COMPLETION || wr->completion_base < 0)
            continue;
        int64_t total = (int64_t)t->num_completions, aux = t->aux[i], count = t->sources[i];
        if (aux < 0 || aux > total || count <= 0) continue; /* none, or damage */
        int64_t first = wr->completion_base + aux,
                end = count > total - first ? total : first + count;
        for (int64_t j = first; j < end; j++) {
            int64_t serial = t->c_requests[j];
            if (t->c_ranks[j] != r || serial <= 0 || serial > wr->max_serial) continue;
            wr->done_by[serial] = c->span_of_peer[i] & 0xffffffff;
            wr->done_row[serial] = j;
        }
    }
    return SP_OK;
}

/* Communicators across ranks: the same members, the same occurrence among
 * the rank's communicators with those members, are one communicator. */
static sp_status unify_comms(wt_ctx *c, const sp_peer_table *t) {
    size_t n = t->num_comms;
    int64_t *at = malloc((n ? n : 1) * sizeof *at), *occurrence = malloc((n ? n : 1) * sizeof *at);
    c->comm_global = malloc((n ? n : 1) * sizeof *c->comm_global);
    if (!at || !occurrence || !c->comm_global) {
        free(at);
        free(occurrence);
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0, m = 0; i < n; m += (size_t)t->comm_sizes[i], i++)
        at[i] = (int64_t)m;
    for (size_t i = 0; i < n; i++) {
        occurrence[i] = 0;
        c->comm_global[i] = -1;
        for (size_t j = 0; j < i; j++) {
            int same = t->comm_sizes[i] == t->comm_sizes[j] &&
                       memcmp(t->comm_members + at[i], t->comm_members + at[j],
                              (size_t)t->comm_sizes[i] * sizeof *t->comm_members) == 0;
            if (!same) continue;
            if (t->comm_ranks[j] == t->comm_ranks[i]) occurrence[i]++;
        }
        for (size_t j = 0; j < i && c->comm_global[i] < 0; j++)
            if (occurrence[j] == occurrence[i] && t->comm_sizes[i] == t->comm_sizes[j] &&
                memcmp(t->comm_members + at[i], t->comm_members + at[j],
                       (size_t)t->comm_sizes[i] * sizeof *t->comm_members) == 0)
                c->comm_global[i] = c->comm_global[j];
        if (c->comm_global[i] < 0) c->comm_global[i] = (int64_t)c->num_global++;
    }
    free(at);
    free(occurrence);
    return SP_OK;
}

int64_t sp_wt_comm(const wt_ctx *c, uint32_t rank, int64_t local) {
    const sp_peer_table *t = c->peers;
    for (size_t i = 0; i < t->num_comms; i++)
        if (t->comm_ranks[i] == rank && t->comm_ids[i] == local) return c->comm_global[i];
    return -1;
}

sp_status sp_wt_peers_attach(wt_ctx *c, const sp_peer_table *t) {
    c->peers = t;
    for (size_t r = 0; r < t->num_complete; r++)
        c->out->incomplete_ranks += t->complete[r] == 0;
    sp_status st = align(c, t);
    if (!st) st = follow_requests(c, t);
    if (!st) st = unify_comms(c, t);
    return st;
}

/* --- messages ------------------------------------------------------------------ */

typedef struct msg {
    int64_t comm, src, dst, tag, order;
    uint32_t rank; /* the rank of this side */
    int64_t post;  /* the span that posted it */
    int64_t block; /* the span that blocked until it was done, -1 none */
    int64_t bytes;
} msg;

static int compare_msgs(const void *a, const void *b) {
    const msg *x = a, *y = b;
    int64_t kx[5] = {x->comm, x->src, x->dst, x->tag, x->order},
            ky[5] = {y->comm, y->src, y->dst, y->tag, y->order};
    for (int i = 0; i < 5; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static int same_channel(const msg *x, const msg *y) {
    return x->comm == y->comm && x->src == y->src && x->dst == y->dst && x->tag == y->tag;
}

/* A side's message, or 0 when the record is not one (MPI_PROC_NULL, unaligned). */
static int message_of(const wt_ctx *c, size_t i, int send, msg *out) {
    const sp_peer_table *t = c->peers;
    if (c->span_of_peer[i] < 0) return 0;
    uint32_t r = (uint32_t)t->ranks[i];
    int64_t span = c->span_of_peer[i] & 0xffffffff;
    wt_class cls = sp_wt_class_of(t->call_names[t->calls[i]]);
    const wt_rank *wr = &c->ranks[r];
    *out = (msg){sp_wt_comm(c, r, t->comms[i]),
                 r,
                 t->peers[i],
                 t->tags[i],
                 (int64_t)i,
                 r,
                 span,
                 span,
                 t->bytes[i]};
    if (send) {
        if (cls != WT_SEND && cls != WT_ISEND && cls != WT_SENDRECV) return 0;
        if (t->peers[i] < 0) return 0;
        if (cls == WT_ISEND)
            out->block = t->aux[i] > 0 && t->aux[i] <= wr->max_serial ? wr->done_by[t->aux[i]] : -1;
        return 1;
    }
    if (cls != WT_RECV && cls != WT_IRECV && cls != WT_SENDRECV) return 0;
    out->dst = r;
    if (cls == WT_IRECV) {
        int64_t s = t->aux[i];
        int64_t row = s > 0 && s <= wr->max_serial ? wr->done_row[s] : -1;
        out->block = row >= 0 ? wr->done_by[s] : -1;
        out->src = row >= 0 ? t->c_sources[row] : -1;
        out->tag = row >= 0 ? t->c_tags[row] : -1;
        if (row < 0 && t->peers[i] == -1) return 0; /* from MPI_PROC_NULL */
        return 2;
    }
    if (cls == WT_SENDRECV && t->sources[i] < 0) return 0; /* its receive was from MPI_PROC_NULL */
    out->src = t->sources[i];
    out->tag = t->source_tags[i];
    if (t->peers[i] == -1 && cls == WT_RECV && out->src < 0) return 0;
    return 2;
}

/* The largest wait of each blocking span and the rank that caused it. */
typedef struct blame {
    int64_t wait;
    uint32_t late;
    int64_t late_thread;
} blame;

static void consider(blame *b, int64_t wait, uint32_t late, int64_t late_thread) {
    if (wait > b->wait) *b = (blame){wait, late, late_thread};
}

static sp_status pair(wt_ctx *c, const msg *s, const msg *r, blame **ls, blame **lr) {
    const wt_span *sp = &c->ranks[s->rank].spans[s->post];
    const wt_span *rp = &c->ranks[r->rank].spans[r->post];
    c->out->messages++;
    if (r->block >= 0) { /* late sender: the receiver blocked before the send began */
        const wt_span *b = &c->ranks[r->rank].spans[r->block];
        if (sp->start > b->start)
            consider(&ls[r->rank][r->block], (sp->start < b->end ? sp->start : b->end) - b->start,
                     s->rank, sp->thread);
    }
    if (s->block >= 0 && s->bytes >= c->eager_bytes) { /* late receiver: rendezvous */
        const wt_span *b = &c->ranks[s->rank].spans[s->block];
        if (rp->start > b->start)
            consider(&lr[s->rank][s->block], (rp->start < b->end ? rp->start : b->end) - b->start,
                     r->rank, rp->thread);
    }
    return SP_OK;
}

static sp_status report_blames(wt_ctx *c, blame **ls, blame **lr) {
    sp_status st = SP_OK;
    for (uint32_t r = 0; !st && r < c->num_ranks; r++)
        for (size_t s = 0; !st && s < c->ranks[r].num_spans; s++) {
            const wt_span *span = &c->ranks[r].spans[s];
            if (ls[r][s].wait > 0)
                st = sp_wt_add(c, SP_WAIT_LATE_SENDER, r, span, ls[r][s].late, ls[r][s].late_thread,
                               span->start, ls[r][s].wait);
            if (!st && lr[r][s].wait > 0)
                st = sp_wt_add(c, SP_WAIT_LATE_RECEIVER, r, span, lr[r][s].late,
                               lr[r][s].late_thread, span->start, lr[r][s].wait);
        }
    return st;
}

sp_status sp_wt_messages(wt_ctx *c) {
    const sp_peer_table *t = c->peers;
    msg *sends = malloc((t->n ? t->n : 1) * sizeof *sends);
    msg *recvs = malloc((t->n ? t->n : 1) * sizeof *recvs);
    blame **ls = calloc(c->num_ranks ? c->num_ranks : 1, sizeof *ls);
    blame **lr = calloc(c->num_ranks ? c->num_ranks : 1, sizeof *lr);
    sp_status st = sends && recvs && ls && lr ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (uint32_t r = 0; !st && r < c->num_ranks; r++) {
        size_t n = c->ranks[r].num_spans ? c->ranks[r].num_spans : 1;
        ls[r] = calloc(n, sizeof **ls);
        lr[r] = calloc(n, sizeof **lr);
        if (!ls[r] || !lr[r]) st = SP_ERR_OUT_OF_MEMORY;
    }
    size_t ns = 0, nr = 0;
    for (size_t i = 0; !st && i < t->n; i++) {
        msg m;
        if (message_of(c, i, 1, &m)) sends[ns++] = m;
        if (message_of(c, i, 0, &m)) {
            if (m.src < 0 || m.comm < 0)
                c->out->unmatched_receives++; /* never completed */
            else
                recvs[nr++] = m;
        }
    }
    if (!st) {
        qsort(sends, ns, sizeof *sends, compare_msgs);
        qsort(recvs, nr, sizeof *recvs, compare_msgs);
    }
    size_t a = 0, b = 0;
    while (!st && (a < ns || b < nr)) {
        if (a < ns && b < nr && same_channel(&sends[a], &recvs[b])) {
            st = pair(c, &sends[a++], &recvs[b++], ls, lr);
        } else if (b >= nr || (a < ns && compare_msgs(&sends[a], &recvs[b]) < 0)) {
            c->out->unmatched_sends++;
            a++;
        } else {
            c->out->unmatched_receives++;
            b++;
        }
    }
    if (!st) st = report_blames(c, ls, lr);
    for (uint32_t r = 0; r < c->num_ranks; r++) {
        if (ls) free(ls[r]);
        if (lr) free(lr[r]);
    }
    free(ls);
    free(lr);
    free(sends);
    free(recvs);
    return st;
}
