/* Our extension /scope_profiler_c/thread_forks (docs/format.md): fork points. */
#include <inttypes.h>
#include <stdlib.h>

#include "format/read_internal.h"

#define FORKS "/scope_profiler_c/thread_forks/"

enum { F_RANK, F_THREAD, F_SINCE, F_PARENT, F_FORK, F_COUNT };
static const char *const fork_columns[F_COUNT] = {FORKS "ranks", FORKS "threads", FORKS "since_ns",
                                                  FORKS "parent_threads", FORKS "fork_ns"};

static int has_thread(const sp_model *m, int64_t rank, int64_t id) {
    for (size_t i = 0; i < m->num_threads; i++)
        if (m->threads[i].rank == rank && m->threads[i].index == id) return 1;
    return 0;
}

static int compare_forks(const void *a, const void *b) {
    const sp_thread_fork *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return (x->since_ns > y->since_ns) - (x->since_ns < y->since_ns);
}

/* Each row must name two different threads of the thread table on its rank. */
static sp_status fill_forks(sp_rd *rd, sp_model *m, int64_t *const *cols, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int64_t rank = cols[F_RANK][i], t = cols[F_THREAD][i], p = cols[F_PARENT][i];
        if (rank < 0 || rank > UINT32_MAX || !has_thread(m, rank, t) || !has_thread(m, rank, p) ||
            t == p)
            return sp_rd_damaged(rd,
                                 "%s row %zu (rank %" PRId64 ", thread %" PRId64 ", parent %" PRId64
                                 ") does not name two threads of /thread_table",
                                 FORKS, i, rank, t, p);
        m->forks[i] = (sp_thread_fork){(uint32_t)rank, t, cols[F_SINCE][i], p, cols[F_FORK][i]};
    }
    m->num_forks = n;
    qsort(m->forks, n, sizeof *m->forks, compare_forks);
    return SP_OK;
}

sp_status sp_rd_thread_forks(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, FORKS "threads") == SP_RD_ABSENT) return SP_OK;
    if (!m->threads) return sp_rd_damaged(rd, "%s is there but /thread_table is not", FORKS);
    int64_t *cols[F_COUNT] = {0};
    size_t n = 0, len = 0;
    sp_status st = sp_rd_int64_column(rd, fork_columns[F_RANK], &cols[F_RANK], &n);
    for (int c = 1; !st && c < F_COUNT; c++) {
        st = sp_rd_int64_column(rd, fork_columns[c], &cols[c], &len);
        if (!st) st = sp_rd_same_length(rd, fork_columns[c], len, fork_columns[F_RANK], n);
    }
    if (!st && !(m->forks = calloc(n ? n : 1, sizeof *m->forks))) st = sp_rd_no_memory(rd);
    if (!st) st = fill_forks(rd, m, cols, n);
    for (int c = 0; c < F_COUNT; c++)
        free(cols[c]);
    return st;
}
