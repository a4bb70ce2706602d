/*
 * Wait states (docs/parallel.md §6): the MPI call events of each rank's
 * recording thread, lined up with their peer records, messages matched in
 * MPI's non-overtaking order per (communicator, source, destination, tag),
 * collectives grouped by (communicator, sequence number); each wait names
 * the rank that waited, its call path, the rank it waited for and what that
 * rank was doing when the wait began.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "waits/waits_internal.h"

const char *sp_wait_kind_name(sp_wait_kind k) {
    static const char *const names[SP_WAIT_KINDS] = {
        "late_sender", "late_receiver", "wait_at_collective", "late_broadcast", "early_reduce"};
    return k < SP_WAIT_KINDS ? names[k] : "?";
}

/* What an MPI region is to the analysis, by its name. */
static const struct {
    const char *name;
    wt_class cls;
} classes[] = {
    {"MPI_Send", WT_SEND},           {"MPI_Isend", WT_ISEND},
    {"MPI_Recv", WT_RECV},           {"MPI_Irecv", WT_IRECV},
    {"MPI_Sendrecv", WT_SENDRECV},   {"MPI_Sendrecv_replace", WT_SENDRECV},
    {"MPI_Wait", WT_COMPLETION},     {"MPI_Waitall", WT_COMPLETION},
    {"MPI_Waitany", WT_COMPLETION},  {"MPI_Test", WT_COMPLETION},
    {"MPI_Testall", WT_COMPLETION},  {"MPI_Testany", WT_COMPLETION},
    {"MPI_Testsome", WT_COMPLETION}, {"MPI_Barrier", WT_ALL},
    {"MPI_Allreduce", WT_ALL},       {"MPI_Allgather", WT_ALL},
    {"MPI_Allgatherv", WT_ALL},      {"MPI_Alltoall", WT_ALL},
    {"MPI_Alltoallv", WT_ALL},       {"MPI_Reduce_scatter", WT_ALL},
    {"MPI_Bcast", WT_FROM_ROOT},     {"MPI_Scatter", WT_FROM_ROOT},
    {"MPI_Scatterv", WT_FROM_ROOT},  {"MPI_Reduce", WT_TO_ROOT},
    {"MPI_Gather", WT_TO_ROOT},      {"MPI_Gatherv", WT_TO_ROOT},
};

wt_class sp_wt_class_of(const char *name) {
    if (strncmp(name, "MPI_", 4) != 0) return WT_NONE;
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (strcmp(name, classes[i].name) == 0) return classes[i].cls;
    return WT_OTHER_MPI;
}

/* --- the events of each rank's recording thread ------------------------------ */

static int compare_spans(const void *a, const void *b) {
    const wt_span *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->end < y->end) - (x->end > y->end); /* the enclosing one first */
}

/* The thread whose calls are analysed: the lowest thread id of the rank
 * (the one that set the session up; the wrappers record peers there). */
static int64_t main_thread(const sp_model *m, uint32_t rank) {
    if (!m->thread_ids) return 0;
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *row = &m->rows[i];
        if (row->rank != rank) continue;
        for (uint64_t e = row->offset; e < row->offset + row->count; e++)
            if (m->thread_ids[e] < best) best = m->thread_ids[e];
    }
    return best == INT64_MAX ? 0 : best;
}

/* Each span's enclosing span: the calls of one thread nest, so a walk up
 * from the last span started before t finds t's enclosing calls in O(depth). */
static void link_parents(wt_rank *wr) {
    int64_t top = -1; /* the innermost span still open */
    for (size_t i = 0; i < wr->num_spans; i++) {
        wt_span *s = &wr->spans[i];
        if (i && s->thread != wr->spans[i - 1].thread) top = -1;
        while (top >= 0 && wr->spans[top].end <= s->start)
            top = wr->spans[top].parent;
        s->parent = top;
        top = (int64_t)i;
    }
}

/* The spans of each rank: every thread's when the peer records say which
 * thread made each (all_threads), else the main thread's. */
static sp_status collect_spans(wt_ctx *c, int all_threads) {
    const sp_model *m = c->m;
    c->ranks = calloc(c->num_ranks, sizeof *c->ranks);
    if (!c->ranks) return SP_ERR_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < c->num_ranks; r++) {
        wt_rank *wr = &c->ranks[r];
        int64_t thread = main_thread(m, r);
        wr->main_thread = thread;
        size_t n = 0;
        for (size_t i = 0; i < m->num_rows; i++)
            if (m->rows[i].rank == r) n += m->rows[i].count;
        wr->spans = malloc((n ? n : 1) * sizeof *wr->spans);
        if (!wr->spans) return SP_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < m->num_rows; i++) {
            const sp_model_row *row = &m->rows[i];
            if (row->rank != r || row->events_skipped) continue;
            wt_class cls = sp_wt_class_of(m->region_names[row->region]);
            for (uint64_t e = row->offset; e < row->offset + row->count; e++) {
                int64_t t = m->thread_ids ? m->thread_ids[e] : 0;
                if (t != thread && !all_threads) continue;
                wt_span *s = &wr->spans[wr->num_spans++];
                *s = (wt_span){m->starts[e],
                               m->starts[e] + m->durations[e],
                               row->region,
                               cls,
                               (int64_t)(e - row->offset),
                               -1,
                               -1,
                               t,
                               0};
                if (s->start < c->first || !c->any) c->first = s->start;
                if (s->end > c->last || !c->any) c->last = s->end;
                c->any = 1;
                if (cls != WT_NONE && t == thread) wr->mpi_ns += s->end - s->start;
            }
        }
        qsort(wr->spans, wr->num_spans, sizeof *wr->spans, compare_spans);
        link_parents(wr);
    }
    return SP_OK;
}

char *sp_wt_path_at(const wt_ctx *c, uint32_t rank, int64_t thread, int64_t t) {
    const wt_rank *wr = &c->ranks[rank];
    size_t lo = 0, hi = wr->num_spans;
    while (lo < hi) { /* the first span of a later thread or starting after t */
        size_t mid = (lo + hi) / 2;
        const wt_span *s = &wr->spans[mid];
        if (s->thread < thread || (s->thread == thread && s->start <= t))
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t s = (int64_t)lo - 1;
    if (s >= 0 && wr->spans[s].thread != thread) s = -1;
    while (s >= 0 && wr->spans[s].end <= t)
        s = wr->spans[s].parent;
    /* s and its parents enclose t: innermost first, so the text is built back to front */
    size_t len = 1;
    for (int64_t p = s; p >= 0; p = wr->spans[p].parent)
        len += strlen(c->m->region_names[wr->spans[p].region]) + 3;
    char *text = malloc(len);
    if (!text) return NULL;
    size_t at = len - 1;
    text[at] = '\0';
    for (int64_t p = s; p >= 0; p = wr->spans[p].parent) {
        const char *name = c->m->region_names[wr->spans[p].region];
        size_t n = strlen(name);
        at -= n;
        memcpy(text + at, name, n);
        if (wr->spans[p].parent >= 0) {
            at -= 3;
            memcpy(text + at, " > ", 3);
        }
    }
    if (at) memmove(text, text + at, len - at);
    return text;
}

/* --- the answer's rows --------------------------------------------------------- */

sp_status sp_wt_add(wt_ctx *c, sp_wait_kind kind, uint32_t waiting, const wt_span *call,
                    uint32_t late, int64_t late_thread, int64_t at, int64_t wait_ns) {
    if (wait_ns <= 0) return SP_OK;
    char *path =
        sp_wt_path_at(c, waiting, call->thread, call->start + (call->end - call->start) / 2);
    char *late_path = sp_wt_path_at(c, late, late_thread, at + wait_ns / 2);
    if (!path || !late_path) {
        free(path);
        free(late_path);
        return SP_ERR_OUT_OF_MEMORY;
    }
    sp_waits *w = c->out;
    c->ranks[waiting].spans[call - c->ranks[waiting].spans].waited += wait_ns;
    w->total_ns[kind] += wait_ns;
    if (call->thread == c->ranks[waiting].main_thread) /* POP: the main thread's time */
        w->rank_wait_ns[waiting] += wait_ns;
    for (size_t i = 0; i < w->num_rows; i++) {
        sp_wait_row *row = &w->rows[i];
        if (row->kind == kind && row->waiting_rank == waiting && row->late_rank == late &&
            strcmp(row->call_path, path) == 0 && strcmp(row->late_path, late_path) == 0) {
            row->wait_ns += wait_ns;
            row->count++;
            free(path);
            free(late_path);
            return SP_OK;
        }
    }
    if (w->num_rows == c->max_rows) {
        size_t n = c->max_rows ? c->max_rows * 2 : 16;
        sp_wait_row *grown = realloc(w->rows, n * sizeof *grown);
        if (!grown) {
            free(path);
            free(late_path);
            return SP_ERR_OUT_OF_MEMORY;
        }
        w->rows = grown;
        c->max_rows = n;
    }
    w->rows[w->num_rows++] = (sp_wait_row){kind, waiting, late, path, late_path, wait_ns, 1};
    return SP_OK;
}

static int compare_rows(const void *a, const void *b) {
    const sp_wait_row *x = a, *y = b;
    if (x->wait_ns != y->wait_ns) return x->wait_ns > y->wait_ns ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return (x->waiting_rank > y->waiting_rank) - (x->waiting_rank < y->waiting_rank);
}

void sp_waits_free(sp_waits *w) {
    for (size_t i = 0; i < w->num_rows; i++) {
        free(w->rows[i].call_path);
        free(w->rows[i].late_path);
    }
    free(w->rows);
    for (size_t i = 0; i < w->num_paths; i++)
        free(w->paths[i].path);
    free(w->paths);
    free(w->rank_wait_ns);
    free(w->rank_useful_ns);
    memset(w, 0, sizeof *w);
}

static void free_ctx(wt_ctx *c) {
    sp_wt_peers_free(c); /* it reads c->ranks */
    for (uint32_t r = 0; c->ranks && r < c->num_ranks; r++)
        free(c->ranks[r].spans);
    free(c->ranks);
}

sp_status sp_waits_compute(const sp_model *m, const sp_peer_table *peers, int64_t eager_bytes,
                           sp_waits *out, sp_error *err) {
    memset(out, 0, sizeof *out);
    wt_ctx c = {0};
    c.m = m;
    c.out = out;
    c.eager_bytes = eager_bytes;
    for (size_t i = 0; i < m->num_rows; i++)
        if (m->rows[i].rank + 1 > c.num_ranks) c.num_ranks = m->rows[i].rank + 1;
    out->num_ranks = c.num_ranks;
    out->eager_bytes = eager_bytes;
    out->peer_data = peers != NULL;
    out->rank_wait_ns = calloc(c.num_ranks ? c.num_ranks : 1, sizeof *out->rank_wait_ns);
    out->rank_useful_ns = calloc(c.num_ranks ? c.num_ranks : 1, sizeof *out->rank_useful_ns);
    sp_status st = out->rank_wait_ns && out->rank_useful_ns ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    if (!st) st = collect_spans(&c, peers && peers->threads && m->thread_ids);
    if (!st && peers) st = sp_wt_peers_attach(&c, peers);
    if (!st && peers) st = sp_wt_messages(&c);
    if (!st) st = peers ? sp_wt_collectives(&c) : sp_wt_collectives_by_order(&c);
    if (!st) st = sp_wt_pop_paths(&c);
    if (!st) {
        int64_t runtime = c.any ? c.last - c.first : 0, ideal = 0;
        for (uint32_t r = 0; r < c.num_ranks; r++) {
            out->rank_useful_ns[r] = runtime - c.ranks[r].mpi_ns;
            int64_t needed = out->rank_useful_ns[r] + out->rank_wait_ns[r];
            if (needed > ideal) ideal = needed;
        }
        out->pop = sp_pop_compute(out->rank_useful_ns, c.num_ranks, runtime, ideal);
        if (out->num_rows) qsort(out->rows, out->num_rows, sizeof *out->rows, compare_rows);
    }
    free_ctx(&c);
    if (st) {
        sp_waits_free(out);
        return sp_error_set(err, st, "%s: out of memory computing the wait states",
                            m->path ? m->path : "profile");
    }
    return SP_OK;
}
