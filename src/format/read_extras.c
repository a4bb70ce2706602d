#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"

#define THREADS "/thread_table/"
#define OFFSETS "/scope_profiler_c/clock_offsets/"
#define PARENTS "/scope_profiler_c/thread_parents/"
#define BYTES   "/scope_profiler_c/message_bytes/bytes"

/* Reads an integer column that must have `want` rows; absent optional
 * columns leave *out NULL. */
static sp_status column(sp_rd *rd, const char *path, const char *ref_path, size_t want,
                        int required, int64_t **out) {
    *out = NULL;
    if (!required && sp_rd_kind_of(rd->file, path) == SP_RD_ABSENT) return SP_OK;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, path, out, &n);
    return st ? st : sp_rd_same_length(rd, path, n, ref_path, want);
}

static sp_status check_ranks(sp_rd *rd, const char *path, const int64_t *ranks, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] > UINT32_MAX)
            return sp_rd_damaged(rd, "%s[%zu] is %" PRId64 ", not a rank", path, i, ranks[i]);
    return SP_OK;
}

enum { T_INDEX, T_IDENT, T_NATIVE, T_DAEMON, T_START, T_END, T_CPU, T_COUNT };
static const char *const thread_columns[T_COUNT] = {
    THREADS "index",    THREADS "ident",  THREADS "native_id", THREADS "daemon",
    THREADS "start_ns", THREADS "end_ns", THREADS "cpu_ns"};

static int64_t value_or(const int64_t *col, size_t i, int64_t fallback) {
    return col ? col[i] : fallback;
}

static sp_status fill_threads(sp_rd *rd, sp_model *m, const int64_t *ranks, int64_t **cols,
                              char **names) {
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_info *t = &m->threads[i];
        t->rank = (uint32_t)ranks[i];
        t->index = value_or(cols[T_INDEX], i, -1);
        t->ident = value_or(cols[T_IDENT], i, -1);
        t->native_id = value_or(cols[T_NATIVE], i, -1);
        t->daemon = value_or(cols[T_DAEMON], i, 0) != 0;
        t->start_ns = value_or(cols[T_START], i, -1);
        t->end_ns = value_or(cols[T_END], i, -1);
        t->cpu_ns = value_or(cols[T_CPU], i, -1);
        t->name = names ? names[i] : sp_strdup("");
        if (names) names[i] = NULL;
        if (!t->name) return sp_rd_no_memory(rd);
    }
    return SP_OK;
}

static sp_status thread_names(sp_rd *rd, size_t want, char ***names) {
    *names = NULL;
    if (sp_rd_kind_of(rd->file, THREADS "name") == SP_RD_ABSENT) return SP_OK;
    size_t n = 0;
    sp_status st = sp_rd_string_column(rd, THREADS "name", names, &n);
    if (!st) st = sp_rd_same_length(rd, THREADS "name", n, THREADS "ranks", want);
    if (st) {
        sp_rd_free_strings(*names, n);
        *names = NULL;
    }
    return st;
}

/* Our extension: each thread-table row's parent thread (same rank), or -1. */
static sp_status thread_parents(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, PARENTS "parent_index") == SP_RD_ABSENT) return SP_OK;
    if (!m->threads)
        return sp_rd_damaged(rd, "%s is there but /thread_table is not", PARENTS "parent_index");
    int64_t *parents = NULL;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, PARENTS "parent_index", &parents, &n);
    if (!st) st = sp_rd_same_length(rd, PARENTS "parent_index", n, THREADS "ranks", m->num_threads);
    for (size_t i = 0; !st && i < n; i++) {
        if (parents[i] < -1 || parents[i] == m->threads[i].index)
            st = sp_rd_damaged(rd, "%s[%zu] is %" PRId64 ", not another thread's index",
                               PARENTS "parent_index", i, parents[i]);
        else
            m->threads[i].parent_slot = parents[i] + 1;
    }
    free(parents);
    return st;
}

sp_status sp_rd_thread_table(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, "/thread_table") == SP_RD_ABSENT) return SP_OK;
    int64_t *ranks = NULL, *cols[T_COUNT] = {0};
    char **names = NULL;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, THREADS "ranks", &ranks, &n);
    if (!st) st = check_ranks(rd, THREADS "ranks", ranks, n);
    for (int c = 0; !st && c < T_COUNT; c++)
        st = column(rd, thread_columns[c], THREADS "ranks", n, 0, &cols[c]);
    if (!st) st = thread_names(rd, n, &names);
    if (!st && !(m->threads = calloc(n ? n : 1, sizeof *m->threads))) st = sp_rd_no_memory(rd);
    if (!st) {
        m->num_threads = n;
        st = fill_threads(rd, m, ranks, cols, names);
    }
    if (!st) st = thread_parents(rd, m);
    sp_rd_free_strings(names, n);
    for (int c = 0; c < T_COUNT; c++)
        free(cols[c]);
    free(ranks);
    return st;
}

/* v + o stays within int64. */
static int shift_fits(int64_t v, int64_t o) {
    return o >= 0 ? v <= INT64_MAX - o : v >= INT64_MIN - o;
}

static int compare_offset_ranks(const void *a, const void *b) {
    uint32_t x = ((const sp_clock_offset *)a)->rank, y = ((const sp_clock_offset *)b)->rank;
    return (x > y) - (x < y);
}

/* The offset of rank in the table sorted by rank, or NULL. */
static const sp_clock_offset *offset_of_rank(const sp_clock_offset *sorted, size_t n,
                                             uint32_t rank) {
    sp_clock_offset key = {rank, 0, 0};
    return bsearch(&key, sorted, n, sizeof *sorted, compare_offset_ranks);
}

/* Every call, row statistic and thread time of the row's rank can be moved. */
static int row_shift_fits(const sp_model *m, const sp_model_row *r, int64_t o) {
    if (r->has_stats &&
        (!shift_fits(r->stats.start_minimum, o) || !shift_fits(r->stats.end_maximum, o)))
        return 0;
    for (uint64_t i = 0; m->layout == SP_LAYOUT_COLUMNAR && i < r->count; i++) {
        int64_t start = m->starts[r->offset + i];
        if (!shift_fits(start, o) || !shift_fits(start + m->durations[r->offset + i], o)) return 0;
    }
    return 1;
}

static sp_status offset_too_large(sp_rd *rd, const sp_clock_offset *c) {
    return sp_rd_damaged(rd,
                         "the clock offset of rank %" PRIu32 " (%" PRId64
                         " ns) would move its times out of the int64 range",
                         c->rank, c->offset_ns);
}

static sp_status check_shifts(sp_rd *rd, const sp_model *m, const sp_clock_offset *sorted) {
    size_t n = m->num_clock_offsets;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_clock_offset *c = offset_of_rank(sorted, n, m->rows[i].rank);
        if (c && !row_shift_fits(m, &m->rows[i], c->offset_ns)) return offset_too_large(rd, c);
    }
    for (size_t i = 0; i < m->num_threads; i++) {
        const sp_thread_info *t = &m->threads[i];
        const sp_clock_offset *c = offset_of_rank(sorted, n, t->rank);
        if (c && (!shift_fits(t->start_ns, c->offset_ns) || !shift_fits(t->end_ns, c->offset_ns)))
            return offset_too_large(rd, c);
    }
    return SP_OK;
}

/*
 * Readers align each rank's times by adding its offset; an offset that
 * cannot be added without overflow, or a rank with two offsets, is damage.
 */
static sp_status check_offsets(sp_rd *rd, const sp_model *m) {
    size_t n = m->num_clock_offsets;
    if (n == 0) return SP_OK;
    sp_clock_offset *sorted = malloc(n * sizeof *sorted);
    if (!sorted) return sp_rd_no_memory(rd);
    memcpy(sorted, m->clock_offsets, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_offset_ranks);
    sp_status st = SP_OK;
    for (size_t i = 1; i < n && !st; i++)
        if (sorted[i].rank == sorted[i - 1].rank)
            st = sp_rd_damaged(rd, "two clock offsets for rank %" PRIu32, sorted[i].rank);
    if (!st) st = check_shifts(rd, m, sorted);
    free(sorted);
    return st;
}

sp_status sp_rd_clock_offsets(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, "/scope_profiler_c/clock_offsets") == SP_RD_ABSENT) return SP_OK;
    int64_t *ranks = NULL, *offsets = NULL, *uncertainties = NULL;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, OFFSETS "ranks", &ranks, &n);
    if (!st) st = check_ranks(rd, OFFSETS "ranks", ranks, n);
    if (!st) st = column(rd, OFFSETS "offset_ns", OFFSETS "ranks", n, 1, &offsets);
    if (!st) st = column(rd, OFFSETS "uncertainty_ns", OFFSETS "ranks", n, 1, &uncertainties);
    if (!st && !(m->clock_offsets = calloc(n ? n : 1, sizeof *m->clock_offsets)))
        st = sp_rd_no_memory(rd);
    for (size_t i = 0; !st && i < n; i++) {
        m->clock_offsets[i].rank = (uint32_t)ranks[i];
        m->clock_offsets[i].offset_ns = offsets[i];
        m->clock_offsets[i].uncertainty_ns = uncertainties[i];
    }
    if (!st) m->num_clock_offsets = n;
    free(ranks);
    free(offsets);
    free(uncertainties);
    return st ? st : check_offsets(rd, m);
}

/* How the file stores /thread_table start_ns and end_ns: relative to
 * /metadata start_time_ns (the Python package, and our writer since it marks
 * the table with `relative_times`), or absolute (our files before that mark:
 * those whose metadata says source_language "c"). */
static int thread_times_relative(sp_rd *rd, const sp_model *m) {
    hid_t group = H5Gopen2(rd->file, "/thread_table", H5P_DEFAULT);
    int64_t marked = 0;
    int rc = group >= 0 ? sp_rd_attr_int64(group, "relative_times", &marked) : 0;
    if (group >= 0) H5Gclose(group);
    if (rc == 1) return marked != 0;
    const sp_meta_entry *lang = sp_model_meta_find(m, "source_language");
    int ours = lang && lang->type == SP_META_STRING && strcmp(lang->s, "c") == 0;
    return !ours;
}

sp_status sp_rd_thread_times(sp_rd *rd, sp_model *m) {
    if (!m->num_threads || !thread_times_relative(rd, m)) return SP_OK;
    const sp_meta_entry *origin = sp_model_meta_find(m, "start_time_ns");
    if (!origin || origin->type != SP_META_INT) return SP_OK; /* nothing to add them to */
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_info *t = &m->threads[i];
        int64_t *times[2] = {&t->start_ns, &t->end_ns};
        for (int k = 0; k < 2; k++) {
            if (*times[k] == -1) continue;
            if (!shift_fits(*times[k], origin->i))
                return sp_rd_damaged(rd, "/thread_table times plus start_time_ns leave the int64 range");
            *times[k] += origin->i;
        }
    }
    return SP_OK;
}

/* Our extension: the bytes each /rank_region_index row's MPI calls moved. */
sp_status sp_rd_message_bytes(sp_rd *rd, sp_model *m) {
    if (sp_rd_kind_of(rd->file, BYTES) == SP_RD_ABSENT) return SP_OK;
    int64_t *bytes = NULL;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, BYTES, &bytes, &n);
    if (!st) st = sp_rd_same_length(rd, BYTES, n, "/rank_region_index/region_ids", m->num_rows);
    for (size_t i = 0; !st && i < n; i++) {
        if (bytes[i] < -1) {
            st = sp_rd_damaged(rd, "%s[%zu] is %" PRId64 ", not a byte count", BYTES, i, bytes[i]);
            break;
        }
        m->rows[i].has_message_bytes = bytes[i] >= 0;
        m->rows[i].message_bytes = bytes[i] >= 0 ? bytes[i] : 0;
    }
    free(bytes);
    return st;
}
