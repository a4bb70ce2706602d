/*
 * Plausibility of a whole profile once it is read (issue 22 item 7; the
 * rules are listed in docs/robustness.md). Each dataset's own checks cannot
 * see that a call lasts longer than the run, that a rank lies beyond
 * mpi_size or that the stored statistics describe other calls: these
 * checks compare the parts with each other. Where the damage is confined to
 * single calls, those calls are dropped and counted (the metadata entry
 * calls_dropped_as_implausible) and the rest of the run is kept; otherwise
 * the read fails with a "damaged profile" error naming the dataset.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel_for.h"
#include "format/drop_calls.h"
#include "format/read_internal.h"
#include "format/reader.h"

/* A call may lie this far outside [start_time_ns, finalize_time_ns]: the
 * clock's error is tens of ns (docs/clock.md), its resolution is added, and
 * the rest is room for writers that take the two times a little apart from
 * the first and last call. */
#define SLACK_NS  INT64_C(1000000)
#define MAX_RANKS INT64_C(2147483647) /* an MPI rank is an int */

typedef struct run_span {
    int has_start, has_end;
    int64_t start, end;
    int64_t slack;
} run_span;

static int meta_int(const sp_model *m, const char *key, int64_t *value) {
    const sp_meta_entry *e = sp_model_meta_find(m, key);
    if (!e || e->type != SP_META_INT) return 0;
    *value = e->i;
    return 1;
}

/* start_time_ns and finalize_time_ns: the run's span on rank 0's clock. */
static sp_status run_times(sp_rd *rd, const sp_model *m, run_span *s) {
    memset(s, 0, sizeof *s);
    s->slack = SLACK_NS;
    s->has_start = meta_int(m, "start_time_ns", &s->start);
    s->has_end = meta_int(m, "finalize_time_ns", &s->end);
    if (s->has_start && s->start < 0)
        return sp_rd_damaged(rd, "/metadata start_time_ns is %" PRId64 ", before the clock began",
                             s->start);
    if (s->has_end && s->end < 0)
        return sp_rd_damaged(
            rd, "/metadata finalize_time_ns is %" PRId64 ", before the clock began", s->end);
    if (s->has_start && s->has_end && s->end < s->start)
        return sp_rd_damaged(
            rd, "/metadata finalize_time_ns (%" PRId64 ") is before start_time_ns (%" PRId64 ")",
            s->end, s->start);
    int64_t resolution;
    if (meta_int(m, "clock_resolution_ns", &resolution) && resolution > 0 &&
        resolution <= INT64_C(1000000000))
        s->slack += 2 * resolution;
    return SP_OK;
}

/* mpi_size, when stored as an integer, bounds every rank the file names. */
static sp_status ranks_within_size(sp_rd *rd, const sp_model *m) {
    int64_t size;
    if (!meta_int(m, "mpi_size", &size)) return SP_OK;
    if (size < 1 || size > MAX_RANKS)
        return sp_rd_damaged(rd, "/metadata mpi_size is %" PRId64 ", not a number of ranks", size);
    for (size_t i = 0; i < m->num_rows; i++) {
        if (m->rows[i].rank < size) continue;
        if (m->schema == 1)
            return sp_rd_damaged(rd, "group /rank%" PRIu32 " lies beyond mpi_size %" PRId64,
                                 m->rows[i].rank, size);
        return sp_rd_damaged(
            rd, "/rank_region_index/ranks[%zu] is %" PRIu32 ", beyond mpi_size %" PRId64, i,
            m->rows[i].rank, size);
    }
    for (size_t i = 0; i < m->num_threads; i++)
        if (m->threads[i].rank >= size)
            return sp_rd_damaged(
                rd, "/thread_table/ranks[%zu] is %" PRIu32 ", beyond mpi_size %" PRId64, i,
                m->threads[i].rank, size);
    return SP_OK;
}

/* --- schema 1: no rank lost silently ------------------------------------------ */

/* "rank7": a rank group's name (no sign, no leading zero). */
static int is_rank_name(const char *name) {
    if (strncmp(name, "rank", 4) != 0 || !name[4]) return 0;
    char *end = NULL;
    unsigned long v = strtoul(name + 4, &end, 10);
    char again[24];
    snprintf(again, sizeof again, "rank%lu", v);
    return *end == '\0' && v <= UINT32_MAX && strcmp(again, name) == 0;
}

static herr_t collect_root(hid_t g, const char *name, const H5L_info_t *info, void *data) {
    (void)g;
    (void)info;
    return sp_rd_names_add(data, name);
}

/* The number of links in the group at path (0 when it cannot be opened). */
static hsize_t links_in(hid_t file, const char *path) {
    hid_t g = H5Gopen2(file, path, H5P_DEFAULT);
    H5G_info_t info = {0};
    if (g < 0) return 0;
    if (H5Gget_info(g, &info) < 0) info.nlinks = 0;
    H5Gclose(g);
    return info.nlinks;
}

/* Every root group but /metadata (and our extension group) is a rank group
 * with a regions group: anything else that holds regions is a damaged rank
 * name, whose calls the reader would otherwise skip without a word. */
static sp_status legacy_groups(sp_rd *rd) {
    sp_rd_names root = {0};
    hsize_t idx = 0;
    if (H5Literate(rd->file, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_root, &root) < 0) {
        int oom = root.out_of_memory;
        sp_rd_names_free(&root);
        return oom ? sp_rd_no_memory(rd) : sp_rd_damaged(rd, "cannot list the root group");
    }
    sp_status st = SP_OK;
    for (size_t i = 0; !st && i < root.count; i++) {
        const char *name = root.names[i];
        if (!strcmp(name, "metadata") || !strcmp(name, "scope_profiler_c")) continue;
        if (sp_rd_kind_of(rd->file, name) != SP_RD_GROUP) continue;
        char regions[1024];
        snprintf(regions, sizeof regions, "/%s/regions", name);
        int has_regions = sp_rd_kind_of(rd->file, regions) == SP_RD_GROUP;
        if (is_rank_name(name) && !has_regions && links_in(rd->file, name) > 0)
            st = sp_rd_damaged(rd,
                               "rank group /%s holds no regions group but other links: its "
                               "calls would be lost",
                               name);
        else if (!is_rank_name(name) && has_regions)
            st = sp_rd_damaged(rd,
                               "group /%s holds regions but is not named rank<N>: its calls "
                               "would be lost",
                               name);
    }
    sp_rd_names_free(&root);
    return st;
}

/* --- calls against the run --------------------------------------------------------- */

/* Whether the rank's calls are held to the metadata's run times: rank 0's
 * (merged per-rank files keep the lowest rank's metadata, and each rank's
 * process had a session of its own), or every rank of a single process. */
static int on_rank0_clock(const sp_model *m, uint32_t rank, int64_t *offset, int64_t *error) {
    *offset = 0;
    *error = 0;
    int64_t size = 1;
    meta_int(m, "mpi_size", &size);
    return rank == 0 || size <= 1;
}

/* Whether one call could have happened in the run. A rank on another clock
 * is only held to the run's length (twice over: its session need not begin
 * with rank 0's). */
static int call_fits(const run_span *s, int64_t start, int64_t duration, int comparable,
                     int64_t offset, int64_t error) {
    int64_t slack = s->slack + error;
    if (s->has_start && s->has_end) {
        int64_t span = s->end - s->start;
        int64_t room = comparable ? span : (span > INT64_MAX / 2 - slack ? INT64_MAX : 2 * span);
        if (room < INT64_MAX - slack && duration > room + slack) return 0;
    }
    if (!comparable) return 1;
    /* in long double: start + offset + duration may leave int64 on a damaged file */
    long double at = (long double)start + (long double)offset;
    if (s->has_start && at < (long double)s->start - (long double)slack) return 0;
    if (s->has_end && at + (long double)duration > (long double)s->end + (long double)slack)
        return 0;
    return 1;
}

typedef struct fit_job {
    const sp_model *m;
    const run_span *s;
    int misfit; /* some call does not fit */
} fit_job;

static void find_misfits(void *ctx, size_t first, size_t count) {
    fit_job *j = ctx;
    const sp_model *m = j->m;
    for (size_t r = first; r < first + count; r++) {
        const sp_model_row *row = &m->rows[r];
        if (row->events_skipped || m->layout != SP_LAYOUT_COLUMNAR) continue;
        int64_t offset, error;
        int comparable = on_rank0_clock(m, row->rank, &offset, &error);
        for (uint64_t k = row->offset; k < row->offset + row->count; k++)
            if (!call_fits(j->s, m->starts[k], m->durations[k], comparable, offset, error)) {
                __atomic_store_n(&j->misfit, 1, __ATOMIC_RELAXED);
                return;
            }
    }
}

/* Drops the calls that cannot lie in the run; *dropped counts them. */
static sp_status drop_outside_run(sp_rd *rd, sp_model *m, const run_span *s, uint64_t *dropped) {
    *dropped = 0;
    if (!s->has_start && !s->has_end) return SP_OK;
    /* Our MPI sessions (they store mpi_writer): the stored run times are not the span of
     * rank 0's session root (a 10.2 ms root in a 3.82 ms span, test_mpi_calls, whose root
     * was dropped), so nothing in such a file is held to them: a real call is never dropped. */
    if (sp_model_meta_find(m, "mpi_writer")) return SP_OK;
    fit_job fits = {m, s, 0};
    sp_parallel_for(m->num_rows, sp_rd_rows_per_block(m), find_misfits, &fits); /* mostly none */
    if (!fits.misfit) return SP_OK;
    uint8_t *drop = NULL;
    for (size_t r = 0; r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        if (row->events_skipped || m->layout != SP_LAYOUT_COLUMNAR) continue;
        int64_t offset, error;
        int comparable = on_rank0_clock(m, row->rank, &offset, &error);
        for (uint64_t k = row->offset; k < row->offset + row->count; k++) {
            if (call_fits(s, m->starts[k], m->durations[k], comparable, offset, error)) continue;
            if (!drop && !(drop = calloc(m->num_events, 1))) return sp_rd_no_memory(rd);
            drop[k] = 1;
            (*dropped)++;
        }
    }
    sp_status st = drop ? sp_model_drop_calls(m, drop) : SP_OK;
    free(drop);
    return st == SP_ERR_OUT_OF_MEMORY ? sp_rd_no_memory(rd) : st;
}

/* --- statistics against the calls ------------------------------------------------ */

/* total lies in [count x minimum, count x maximum] and the mean in [minimum,
 * maximum]: in long double, which holds every product exactly enough. */
static const char *stats_contradict_count(const sp_model_row *row) {
    long double c = (long double)row->count;
    const sp_row_stats *s = &row->stats;
    if ((long double)s->total < c * (long double)s->minimum ||
        (long double)s->total > c * (long double)s->maximum)
        return "its total does not lie between count x minimum and count x maximum";
    long double slack = 1e-6L * ((long double)s->maximum + 1);
    if ((long double)s->mean < (long double)s->minimum - slack ||
        (long double)s->mean > (long double)s->maximum + slack)
        return "its mean lies outside [minimum, maximum]";
    return NULL;
}

static int same_float(double a, double b, double scale) {
    return fabs(a - b) <= 1e-6 * (fabs(b) + scale) + 1e-3;
}

/* Whether the row's stored statistics are those of its calls. */
static int stats_match(const sp_model_row *row, const int64_t *starts, const int64_t *durations) {
    sp_row_stats c;
    sp_row_stats_compute(&c, starts, durations, row->count);
    const sp_row_stats *s = &row->stats;
    double spread = (double)c.maximum * (double)c.maximum * (double)row->count;
    return s->total == c.total && s->minimum == c.minimum && s->maximum == c.maximum &&
           s->first == c.first && s->last == c.last && s->start_minimum == c.start_minimum &&
           s->end_maximum == c.end_maximum && same_float(s->mean, c.mean, (double)c.maximum) &&
           same_float(s->m2, c.m2, spread);
}

static int stats_match_calls(const sp_model *m, const sp_model_row *row) {
    return stats_match(row, m->starts + row->offset, m->durations + row->offset);
}

/* Stored statistics that contradict their own row are damage; statistics
 * that describe other calls than the row holds are computed again from the
 * calls (the calls are what was recorded), and *recomputed counts the rows. */
typedef struct stats_job {
    sp_model *m;
    uint64_t recomputed;
    size_t bad_row; /* the first row whose statistics contradict it; SIZE_MAX: none */
} stats_job;

/* Each row's statistics are checked, and recomputed, on their own. */
static void check_rows_stats(void *ctx, size_t first, size_t count) {
    stats_job *j = ctx;
    sp_model *m = j->m;
    uint64_t recomputed = 0;
    for (size_t i = first; i < first + count; i++) {
        sp_model_row *row = &m->rows[i];
        if (!row->count || !row->has_stats) continue;
        if (stats_contradict_count(row)) {
            sp_parallel_note_first(&j->bad_row, i);
            break;
        }
        if (m->layout != SP_LAYOUT_COLUMNAR || row->events_skipped || stats_match_calls(m, row))
            continue;
        uint64_t gpu_count = row->stats.gpu_count;
        int64_t gpu_total = row->stats.gpu_total;
        sp_row_stats_compute(&row->stats, m->starts + row->offset, m->durations + row->offset,
                             row->count);
        row->stats.gpu_count = gpu_count;
        row->stats.gpu_total = gpu_total;
        if (row->exclusive_total > row->stats.total) row->exclusive_total = -1;
        recomputed++;
    }
    __atomic_fetch_add(&j->recomputed, recomputed, __ATOMIC_RELAXED);
}

static sp_status check_row_stats(sp_rd *rd, sp_model *m, uint64_t *recomputed) {
    stats_job j = {m, 0, SIZE_MAX};
    sp_parallel_for(m->num_rows, sp_rd_rows_per_block(m), check_rows_stats, &j);
    *recomputed = j.recomputed;
    if (j.bad_row == SIZE_MAX) return SP_OK;
    return sp_rd_damaged(rd, "the statistics of row %zu of /rank_region_index: %s", j.bad_row,
                         stats_contradict_count(&m->rows[j.bad_row]));
}

int sp_rd_row_plausible(const sp_model *m, const sp_model_row *row, const int64_t *starts,
                        const int64_t *durations) {
    run_span s;
    sp_rd quiet = {-1, "", NULL};
    if (run_times(&quiet, m, &s) != SP_OK) return 0;
    if ((s.has_start || s.has_end) && !sp_model_meta_find(m, "mpi_writer")) {
        int64_t offset, error;
        int comparable = on_rank0_clock(m, row->rank, &offset, &error);
        for (uint64_t k = 0; k < row->count; k++)
            if (!call_fits(&s, starts[k], durations[k], comparable, offset, error)) return 0;
    }
    if (!row->count || !row->has_stats) return 1;
    return !stats_contradict_count(row) && stats_match(row, starts, durations);
}

static sp_status count_in_metadata(sp_rd *rd, sp_model *m, const char *key, uint64_t n) {
    if (!n) return SP_OK;
    int64_t before = 0;
    meta_int(m, key, &before); /* a file written from a model that already dropped some */
    sp_status st = sp_model_meta_int(m, key, before + (int64_t)n);
    return st ? sp_rd_no_memory(rd) : SP_OK;
}

sp_status sp_rd_plausibility(sp_rd *rd, sp_model *m) {
    run_span span;
    sp_status st = run_times(rd, m, &span);
    if (!st) st = ranks_within_size(rd, m);
    if (!st && m->schema == 1) st = legacy_groups(rd);
    uint64_t dropped = 0, recomputed = 0;
    if (!st) st = drop_outside_run(rd, m, &span, &dropped);
    if (!st) st = check_row_stats(rd, m, &recomputed);
    if (!st) st = count_in_metadata(rd, m, SP_CALLS_DROPPED_KEY, dropped);
    if (!st) st = count_in_metadata(rd, m, SP_STATS_RECOMPUTED_KEY, recomputed);
    return st;
}
