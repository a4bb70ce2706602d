/*
 * POP efficiencies per call path (docs/parallel.md §6.4): the per-run
 * figures of pop.c computed over the calls of one path instead of the run.
 * For path P on each rank (main thread): its time (the calls of P), its MPI
 * time (the outermost MPI calls inside P) and its waits (the wait states of
 * those calls); useful = time - MPI time, the runtime is the longest rank's
 * time in P and the ideal network's the longest useful + waits.
 */
#include <stdlib.h>
#include <string.h>

#include "waits/waits_internal.h"

/* The call paths: (parent path, region) -> path, open addressing. */
typedef struct path_table {
    int64_t *parent;
    uint32_t *region;
    size_t n, max;
    int64_t *slots; /* path + 1, 0 empty */
    size_t num_slots;
} path_table;

static size_t hash_of(int64_t parent, uint32_t region, size_t size) {
    uint64_t h = (uint64_t)(parent + 1) * 0x9E3779B97F4A7C15ull ^ region * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h >> 17) & (size - 1);
}

static int rehash(path_table *t) {
    size_t size = t->num_slots ? t->num_slots * 2 : 1024;
    int64_t *slots = calloc(size, sizeof *slots);
    if (!slots) return 0;
    for (size_t p = 0; p < t->n; p++) {
        size_t s = hash_of(t->parent[p], t->region[p], size);
        while (slots[s])
            s = (s + 1) & (size - 1);
        slots[s] = (int64_t)p + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->num_slots = size;
    return 1;
}

/* The path id of `region` under `parent` (-1: top level); -1 out of memory. */
static int64_t intern(path_table *t, int64_t parent, uint32_t region) {
    if ((t->n + 1) * 2 > t->num_slots && !rehash(t)) return -1;
    size_t s = hash_of(parent, region, t->num_slots);
    for (; t->slots[s]; s = (s + 1) & (t->num_slots - 1)) {
        int64_t p = t->slots[s] - 1;
        if (t->parent[p] == parent && t->region[p] == region) return p;
    }
    if (t->n == t->max) {
        size_t max = t->max ? t->max * 2 : 256;
        int64_t *pa = realloc(t->parent, max * sizeof *pa);
        if (pa) t->parent = pa;
        uint32_t *re = pa ? realloc(t->region, max * sizeof *re) : NULL;
        if (!re) return -1;
        t->region = re;
        t->max = max;
    }
    t->parent[t->n] = parent;
    t->region[t->n] = region;
    t->slots[s] = (int64_t)t->n + 1;
    return (int64_t)t->n++;
}

static char *path_text(const path_table *t, const sp_model *m, int64_t p) {
    size_t len = 1;
    for (int64_t q = p; q >= 0; q = t->parent[q])
        len += strlen(m->region_names[t->region[q]]) + 3;
    char *text = malloc(len);
    if (!text) return NULL;
    size_t at = len - 1;
    text[at] = '\0';
    for (int64_t q = p; q >= 0; q = t->parent[q]) {
        const char *name = m->region_names[t->region[q]];
        size_t n = strlen(name);
        at -= n;
        memcpy(text + at, name, n);
        if (t->parent[q] >= 0) memcpy(text + (at -= 3), " > ", 3);
    }
    memmove(text, text + at, len - at);
    return text;
}

/* One rank's time, MPI time and waits per path, folded into the sums. */
typedef struct path_sums {
    double useful_sum;
    int64_t useful_max, runtime, ideal;
} path_sums;

static int compare_paths(const void *a, const void *b) {
    const sp_path_pop *x = a, *y = b;
    if (x->pop.runtime_ns != y->pop.runtime_ns)
        return x->pop.runtime_ns > y->pop.runtime_ns ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* Adds v to path p and every path around it. */
static void add_up(const path_table *t, int64_t *to, int64_t p, int64_t v) {
    for (; p >= 0; p = t->parent[p])
        to[p] += v;
}

static sp_status fold_rank(wt_ctx *c, const wt_rank *wr, path_table *t, int64_t *ids, int64_t **acc,
                           size_t *acc_size, path_sums **sums, size_t *sums_size) {
    for (size_t s = 0; s < wr->num_spans; s++) { /* parents come first: their ids exist */
        const wt_span *sp = &wr->spans[s];
        ids[s] = -1;
        if (sp->thread != wr->main_thread) continue;
        int64_t parent = sp->parent >= 0 ? ids[sp->parent] : -1;
        if ((ids[s] = intern(t, parent, sp->region)) < 0) return SP_ERR_OUT_OF_MEMORY;
    }
    if (t->n * 3 > *acc_size || t->n > *sums_size) {
        size_t n = t->n * 2;
        int64_t *a = realloc(*acc, n * 3 * sizeof *a);
        if (a) *acc = a;
        path_sums *g = a ? realloc(*sums, n * sizeof *g) : NULL;
        if (!g) return SP_ERR_OUT_OF_MEMORY;
        memset(g + *sums_size, 0, (n - *sums_size) * sizeof *g);
        *sums = g;
        *sums_size = n;
        *acc_size = n * 3;
    }
    int64_t *time = *acc, *mpi = *acc + t->n, *waits = *acc + 2 * t->n;
    memset(*acc, 0, t->n * 3 * sizeof **acc);
    for (size_t s = 0; s < wr->num_spans; s++) {
        const wt_span *sp = &wr->spans[s];
        if (ids[s] < 0) continue;
        time[ids[s]] += sp->end - sp->start;
        int outermost_mpi =
            sp->cls != WT_NONE && (sp->parent < 0 || wr->spans[sp->parent].cls == WT_NONE);
        if (outermost_mpi) add_up(t, mpi, ids[s], sp->end - sp->start);
        if (sp->waited) add_up(t, waits, ids[s], sp->waited);
    }
    for (size_t p = 0; p < t->n; p++) {
        path_sums *g = &(*sums)[p];
        int64_t useful = time[p] - mpi[p], needed = useful + waits[p];
        g->useful_sum += (double)useful;
        if (useful > g->useful_max) g->useful_max = useful;
        if (time[p] > g->runtime) g->runtime = time[p];
        if (needed > g->ideal) g->ideal = needed;
    }
    (void)c;
    return SP_OK;
}

sp_status sp_wt_pop_paths(wt_ctx *c) {
    path_table t = {0};
    int64_t *ids = NULL, *acc = NULL;
    path_sums *sums = NULL;
    size_t acc_size = 0, sums_size = 0, most = 0;
    for (uint32_t r = 0; r < c->num_ranks; r++)
        if (c->ranks[r].num_spans > most) most = c->ranks[r].num_spans;
    ids = malloc((most ? most : 1) * sizeof *ids);
    sp_status st = ids ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (uint32_t r = 0; !st && r < c->num_ranks; r++)
        st = fold_rank(c, &c->ranks[r], &t, ids, &acc, &acc_size, &sums, &sums_size);
    sp_waits *w = c->out;
    if (!st && t.n) {
        w->paths = calloc(t.n, sizeof *w->paths);
        if (!w->paths) st = SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t p = 0; !st && p < t.n; p++) {
        if (sp_wt_class_of(c->m->region_names[t.region[p]]) != WT_NONE) continue; /* MPI's own */
        const path_sums *g = &sums[p];
        char *text = path_text(&t, c->m, p);
        if (!text) {
            st = SP_ERR_OUT_OF_MEMORY;
            break;
        }
        w->paths[w->num_paths++] =
            (sp_path_pop){text, sp_pop_from_sums(g->useful_sum, (double)g->useful_max, c->num_ranks,
                                                 g->runtime, g->ideal)};
    }
    if (!st && w->num_paths) qsort(w->paths, w->num_paths, sizeof *w->paths, compare_paths);
    free(t.parent);
    free(t.region);
    free(t.slots);
    free(ids);
    free(acc);
    free(sums);
    return st;
}
