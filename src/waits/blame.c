/*
 * What the wait states say outside `scope-profiler waits` (issue 25): the
 * computation that causes most waiting (inspect, the report's headline),
 * and what a rank waits for inside a region (inspect's Load balance).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/clock_alignment.h"
#include "format/reader.h"
#include "waits/waits.h"

sp_status sp_waits_of_file(const char *path, int64_t eager_bytes, sp_waits *out, int *present,
                           sp_error *err) {
    memset(out, 0, sizeof *out);
    *present = 0;
    sp_peer_table peers;
    int have = 0;
    sp_status st = sp_peer_table_read(path, &peers, &have, err);
    if (st || !have) return st;
    sp_model m = {0};
    st = sp_read_model(path, &m, err);
    if (!st && m.layout == SP_LAYOUT_COLUMNAR) {
        sp_align_rank_clocks(&m);
        st = sp_waits_compute(&m, &peers, eager_bytes, out, err);
        *present = !st;
    }
    sp_model_clear(&m);
    sp_peer_table_free(&peers);
    return st;
}

/* The innermost region of a " > " path. */
static const char *innermost(const char *path) {
    const char *last = strrchr(path, '>');
    return last ? last + 2 : path;
}

static int inside_mpi(const char *late_path) {
    return strncmp(innermost(late_path), "MPI_", 4) == 0;
}

/* Whether region `name` is one of the path's regions. */
static int path_has(const char *path, const char *name) {
    size_t n = strlen(name);
    for (const char *p = path; p; p = strstr(p, " > ")) {
        if (p != path) p += 3;
        if (strncmp(p, name, n) == 0 && (p[n] == '\0' || strncmp(p + n, " > ", 3) == 0)) return 1;
    }
    return 0;
}

typedef int (*row_filter)(const sp_wait_row *row, uint32_t rank, const char *name);

/* The (late rank, late path) whose rows (those `keep` accepts) add up to
 * most, with mpi 0 leaving out late paths inside MPI calls. */
static int best_cause(const sp_waits *w, row_filter keep, uint32_t rank, const char *name, int mpi,
                      sp_wait_cause *c) {
    int found = 0;
    for (size_t i = 0; i < w->num_rows; i++) {
        const sp_wait_row *a = &w->rows[i];
        if (!keep(a, rank, name) || (!mpi && inside_mpi(a->late_path))) continue;
        int64_t sum = 0;
        for (size_t j = 0; j < w->num_rows; j++) {
            const sp_wait_row *b = &w->rows[j];
            if (keep(b, rank, name) && b->late_rank == a->late_rank &&
                strcmp(b->late_path, a->late_path) == 0)
                sum += b->wait_ns;
        }
        if (!found || sum > c->wait_ns) {
            *c = (sp_wait_cause){a->late_rank, a->late_path, sum};
            found = 1;
        }
    }
    return found;
}

static int any_row(const sp_wait_row *row, uint32_t rank, const char *name) {
    (void)row, (void)rank, (void)name;
    return 1;
}

static int rank_in_region(const sp_wait_row *row, uint32_t rank, const char *name) {
    return row->waiting_rank == rank && path_has(row->call_path, name);
}

int sp_waits_largest_cause(const sp_waits *w, sp_wait_cause *c) {
    return best_cause(w, any_row, 0, NULL, 0, c);
}

int64_t sp_waits_in_region(const sp_waits *w, uint32_t rank, const char *name, sp_wait_cause *c) {
    int64_t total = 0;
    for (size_t i = 0; i < w->num_rows; i++)
        if (rank_in_region(&w->rows[i], rank, name)) total += w->rows[i].wait_ns;
    /* a rank that was itself waiting passes the wait on: named only when nothing else is */
    if (!best_cause(w, rank_in_region, rank, name, 0, c) &&
        !best_cause(w, rank_in_region, rank, name, 1, c))
        *c = (sp_wait_cause){0, NULL, 0};
    return total;
}

sp_status sp_waits_attach(const sp_results *r, const sp_waits *w) {
    if (!w) return sp_results_set_excluded(r, NULL, 0, 0);
    sp_excluded_entry *e = malloc((w->num_rows ? w->num_rows : 1) * sizeof *e);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < w->num_rows; i++)
        e[i] =
            (sp_excluded_entry){w->rows[i].waiting_rank, w->rows[i].call_path, w->rows[i].wait_ns};
    sp_status st = sp_results_set_excluded(r, e, w->num_rows, 1);
    free(e);
    return st;
}

/* Whether the results hold MPI calls (regions the PMPI wrappers name). */
static int has_mpi_calls(const sp_results *r) {
    for (size_t i = 0; i < sp_results_num_regions(r); i++)
        if (strncmp(sp_results_region_name(r, i), "MPI_", 4) == 0) return 1;
    return 0;
}

void sp_waits_attach_to(const sp_results *r, const sp_waits *w) {
    if (sp_results_num_ranks(r) >= 2 && has_mpi_calls(r)) sp_waits_attach(r, w);
}

void sp_waits_attach_file(const sp_results *r, const char *path) {
    sp_waits w;
    int present = 0;
    sp_error err = {0};
    if (!path || sp_results_excluded_state(r) || sp_results_num_ranks(r) < 2 || !has_mpi_calls(r) ||
        sp_waits_of_file(path, SP_WAITS_EAGER_BYTES, &w, &present, &err) != SP_OK)
        return; /* nothing said: the balances stay as they were */
    sp_waits_attach(r, present ? &w : NULL);
    if (present) sp_waits_free(&w);
}
