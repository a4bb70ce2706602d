/*
 * Aggregate files (FORMAT.md §3) with and without our histogram extension
 * (docs/format.md, /scope_profiler_c/histograms), written with
 * sp_write_aggregate_model as the Python package lays them out, read through the API. With
 * histograms, p50/p95/p99 come from them (equal to the merged histograms' percentiles, within 1/128
 * of the exact ones of the same calls); without, they are n/a. Damaged extensions are refused.
 */
#include <hdf5.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "format/h5_write.h"
#include "format/reader.h"
#include "format/write_aggregate.h"
#include "model_builder.h"

static const char *const REGIONS[] = {"step", "solve"};
#define NUM_CALLS 6000

/* 2 ranks; step > solve; solve's durations lognormal-ish and bimodal per rank. */
static mb_call *workload(size_t *n) {
    mb_call *calls = malloc(NUM_CALLS * sizeof *calls);
    assert_non_null(calls);
    uint64_t x = 12345;
    size_t k = 0;
    for (uint32_t rank = 0; rank < 2; rank++)
        for (int i = 0; i < NUM_CALLS / 4; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int64_t d = 1000 + (int64_t)((x >> 33) % (rank ? 900000 : 40000));
            if (i % 7 == 0) d *= 30;
            int64_t t = (int64_t)i * 100000000;
            calls[k++] = (mb_call){0, rank, t, t + d + 2000, 0};
            calls[k++] = (mb_call){1, rank, t + 1000, t + 1000 + d, i % 3 == 0 ? 1 : 0};
        }
    *n = k;
    return calls;
}

/* The histograms of the calls: per (rank, thread, call path), step the parent
 * of solve; with_totals: and each path's total (the optional `totals`). */
static void add_histograms(sp_model *m, const mb_call *calls, size_t n, int with_totals) {
    m->hists = calloc(8, sizeof *m->hists);
    assert_non_null(m->hists);
    double mean[8] = {0}; /* Welford: each row's m2 */
    for (size_t i = 0; i < n; i++) {
        const mb_call *c = &calls[i];
        size_t slot = m->num_hists;
        for (size_t h = 0; h < m->num_hists; h++)
            if (m->hists[h].rank == c->rank && m->hists[h].thread == c->thread &&
                m->hists[h].region == (uint32_t)c->region)
                slot = h;
        if (slot == m->num_hists) {
            int64_t parent = -1;
            for (size_t h = 0; c->region == 1 && h < m->num_hists; h++)
                if (m->hists[h].rank == c->rank && m->hists[h].thread == c->thread &&
                    m->hists[h].region == 0)
                    parent = (int64_t)h;
            m->hists[m->num_hists++] = (sp_model_hist){
                c->rank, c->thread, (uint32_t)c->region, parent, SP_HIST_INIT, 0, 0.0, -1};
        }
        assert_int_equal(sp_hist_add(&m->hists[slot].hist, c->end - c->start), SP_OK);
        m->hists[slot].total += c->end - c->start;
        double x = (double)(c->end - c->start), delta = x - mean[slot];
        mean[slot] += delta / (double)m->hists[slot].hist.count;
        m->hists[slot].m2 += delta * (x - mean[slot]);
    }
    m->hist_totals = m->hist_spread = with_totals;
}

/* Thread 1's top-level solve rows hang under the step row of thread 0 on
 * their rank (as if thread 1 were forked inside step). */
static void add_fork_parents(sp_model *m) {
    for (size_t i = 0; i < m->num_hists; i++) {
        sp_model_hist *h = &m->hists[i];
        h->fork_parent = -1;
        for (size_t k = 0; h->thread == 1 && h->parent < 0 && k < i; k++)
            if (m->hists[k].rank == h->rank && m->hists[k].thread == 0 && m->hists[k].region == 0)
                h->fork_parent = (int64_t)k;
    }
    m->hist_forks = 1;
}

typedef struct fixture {
    char path[64];
    sp_model columnar; /* the same calls with events, for the exact percentiles */
    sp_model aggregate;
} fixture;

/* with_histograms: 0 none (the Python package), 1 histograms (files before
 * `totals`), 2 histograms with totals, 3 with totals and fork parents. */
static void make(fixture *fx, int with_histograms) {
    size_t n;
    mb_call *calls = workload(&n);
    mb_spec spec = {.regions = REGIONS,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = n,
                    .with_threads = 1,
                    .mpi_size = 2};
    mb_model(&spec, &fx->columnar);
    mb_model(&spec, &fx->aggregate);
    mb_make_aggregate(&fx->aggregate);
    if (with_histograms) add_histograms(&fx->aggregate, calls, n, with_histograms >= 2);
    if (with_histograms == 3) add_fork_parents(&fx->aggregate);
    free(calls);
    snprintf(fx->path, sizeof fx->path, "/tmp/test_aggregate_hist_XXXXXX");
    int fd = mkstemp(fx->path);
    assert_true(fd >= 0);
    close(fd);
    sp_error err = {0};
    if (sp_write_aggregate_model(&fx->aggregate, fx->path, &err) != SP_OK)
        fail_msg("%s", err.message);
}

static void release(fixture *fx) {
    sp_model_clear(&fx->columnar);
    sp_model_clear(&fx->aggregate);
    unlink(fx->path);
}

/* The merged histogram of a region over the chosen ranks (rank < 0: all). */
static void merged(const sp_model *m, uint32_t region, int64_t rank, sp_hist *out) {
    for (size_t i = 0; i < m->num_hists; i++)
        if (m->hists[i].region == region && (rank < 0 || m->hists[i].rank == (uint32_t)rank))
            assert_int_equal(sp_hist_merge(out, &m->hists[i].hist), SP_OK);
}

static void check_within(double got, double exact, const char *what) {
    if (!(fabs(got - exact) <= SP_HIST_RELATIVE_ERROR * exact))
        fail_msg("%s: %.17g from the histograms, exact %.17g", what, got, exact);
}

static void percentiles_from_histograms(void **state) {
    (void)state;
    fixture fx;
    make(&fx, 1);
    sp_error err = {0};
    sp_results *r = sp_read(fx.path, &err);
    if (!r) fail_msg("%s", err.message);
    sp_model copy = fx.columnar;
    memset(&fx.columnar, 0, sizeof fx.columnar);
    sp_results *exact = sp_results_adopt(&copy, &err);
    assert_non_null(exact);
    assert_false(sp_results_has_events(r));
    assert_true(sp_results_percentile_error(r) == 1.0 / 128.0);
    assert_true(sp_results_percentile_error(exact) == 0.0);
    for (int per_rank = 0; per_rank < 2; per_rank++) {
        sp_summary_rows *a = sp_results_summary(r, NULL, per_rank, &err);
        sp_summary_rows *b = sp_results_summary(exact, NULL, per_rank, &err);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(a->count, b->count);
        for (size_t i = 0; i < a->count; i++) {
            const sp_summary_row *x = &a->rows[i], *y = &b->rows[i];
            assert_string_equal(x->name, y->name);
            assert_int_equal(x->num_calls, y->num_calls);
            assert_true(x->has_percentiles);
            assert_true(x->percentile_error == 1.0 / 128.0);
            assert_true(y->percentile_error == 0.0);
            sp_hist h = SP_HIST_INIT;
            merged(&fx.aggregate, (uint32_t)sp_results_find(r, x->name), x->rank, &h);
            assert_int_equal(h.count, x->num_calls);
            assert_true(x->p50_duration == sp_hist_percentile(&h, 50) / 1e9);
            assert_true(x->p95_duration == sp_hist_percentile(&h, 95) / 1e9);
            assert_true(x->p99_duration == sp_hist_percentile(&h, 99) / 1e9);
            sp_hist_free(&h);
            check_within(x->p50_duration, y->p50_duration, "p50");
            check_within(x->p95_duration, y->p95_duration, "p95");
            check_within(x->p99_duration, y->p99_duration, "p99");
        }
        sp_summary_rows_free(a);
        sp_summary_rows_free(b);
    }
    const sp_mpi_region *solve = sp_results_get(r, "solve", &err);
    const sp_mpi_region *solve_exact = sp_results_get(exact, "solve", &err);
    for (double q = 0; q <= 100; q += 10)
        check_within(sp_mpi_region_percentile(solve, q, &err),
                     sp_mpi_region_percentile(solve_exact, q, &err), "solve percentile");
    const sp_rank_region *rr = sp_mpi_region_rank(solve, 1, &err);
    assert_non_null(rr);
    check_within(sp_rank_region_percentile(rr, 90, &err),
                 sp_rank_region_percentile(sp_mpi_region_rank(solve_exact, 1, &err), 90, &err),
                 "rank 1 p90");
    sp_results_free(r);
    sp_results_free(exact);
    release(&fx);
}

/* The Python package's aggregate file (no histograms): read, percentiles n/a. */
static void python_layout_without_histograms(void **state) {
    (void)state;
    fixture fx;
    make(&fx, 0);
    sp_error err = {0};
    sp_results *r = sp_read(fx.path, &err);
    if (!r) fail_msg("%s", err.message);
    assert_true(isnan(sp_results_percentile_error(r)));
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    assert_int_equal(rows->count, 2);
    for (size_t i = 0; i < rows->count; i++) {
        assert_false(rows->rows[i].has_percentiles);
        assert_true(rows->rows[i].num_calls == NUM_CALLS / 2);
    }
    sp_summary_rows_free(rows);
    assert_true(isnan(sp_mpi_region_percentile(sp_results_get(r, "solve", &err), 50, &err)));
    assert_int_equal(err.status, SP_ERR_UNAVAILABLE);
    sp_results_free(r);
    release(&fx);
}

/* Rewrites one dataset (or attribute) of the extension and expects a refusal. */
static void expect_refused(void (*damage)(hid_t g), sp_status want, const char *words) {
    fixture fx;
    make(&fx, 3);
    hid_t f = H5Fopen(fx.path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(f, "/scope_profiler_c/histograms", H5P_DEFAULT);
    damage(g);
    H5Gclose(g);
    H5Fclose(f);
    sp_error err = {0};
    sp_results *r = sp_read(fx.path, &err);
    assert_null(r);
    assert_int_equal(err.status, want);
    if (!strstr(err.message, words)) fail_msg("message \"%s\" lacks \"%s\"", err.message, words);
    release(&fx);
}

static void replace_i64(hid_t g, const char *name, size_t at, int64_t value) {
    hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    int64_t *v = malloc((size_t)n * sizeof *v);
    H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    v[at] = value;
    H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    free(v);
    H5Sclose(space);
    H5Dclose(ds);
}

static void fewer_calls(hid_t g) {
    replace_i64(g, "counts", 0, 1);
}
static void unsorted_buckets(hid_t g) {
    replace_i64(g, "buckets", 1, 0);
}
static void later_parent(hid_t g) {
    replace_i64(g, "parents", 0, 3);
}
static void spread_negative(hid_t g) {
    double v[8];
    hid_t ds = H5Dopen2(g, "squared_deviations", H5P_DEFAULT);
    H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    v[3] = -1.0;
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
}
static void spread_as_integers(hid_t g) {
    H5Ldelete(g, "squared_deviations", H5P_DEFAULT);
    int64_t v[3] = {0, 0, 0};
    sp_h5_write_array(g, "squared_deviations", H5T_STD_I64LE, H5T_NATIVE_INT64, v, 3);
}
static void total_above_max(hid_t g) {
    replace_i64(g, "totals", 1, INT64_MAX / 2);
}
static void total_negative(hid_t g) {
    replace_i64(g, "totals", 2, -5);
}
static void totals_off_by_one(hid_t g) {
    int64_t v[8];
    hid_t ds = H5Dopen2(g, "totals", H5P_DEFAULT);
    H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    replace_i64(g, "totals", 0, v[0] - 1); /* still inside its bounds */
}
/* Rows: per rank, step (thread 0), solve (thread 1, forked under step),
 * solve (thread 0, under step). */
static void fork_parent_later(hid_t g) {
    replace_i64(g, "fork_parents", 0, 5);
}
static void fork_parent_other_rank(hid_t g) {
    replace_i64(g, "fork_parents", 4, 0);
}
static void fork_parent_with_parent(hid_t g) {
    replace_i64(g, "fork_parents", 2, 1);
}
static void newer_version(hid_t g) {
    H5Adelete(g, "extension_version");
    sp_h5_attr_int64(g, "extension_version", 2);
}

static void damaged_extensions(void **state) {
    (void)state;
    expect_refused(fewer_calls, SP_ERR_DAMAGED, "the histograms of region");
    expect_refused(unsorted_buckets, SP_ERR_DAMAGED, "bucket indices must ascend");
    expect_refused(later_parent, SP_ERR_DAMAGED, "parents[0]");
    expect_refused(newer_version, SP_ERR_SCHEMA_TOO_NEW, "extension_version 2");
    expect_refused(total_above_max, SP_ERR_DAMAGED, "row 1 of /scope_profiler_c/histograms: total");
    expect_refused(total_negative, SP_ERR_DAMAGED,
                   "row 2 of /scope_profiler_c/histograms: total -5");
    expect_refused(totals_off_by_one, SP_ERR_DAMAGED, "the totals of the histograms of region");
    expect_refused(spread_negative, SP_ERR_DAMAGED,
                   "row 3 of /scope_profiler_c/histograms: squared deviations -1");
    expect_refused(spread_as_integers, SP_ERR_BAD_DATASET, "squared_deviations");
    expect_refused(fork_parent_later, SP_ERR_DAMAGED, "fork_parents[0] is 5");
    expect_refused(fork_parent_other_rank, SP_ERR_DAMAGED, "fork_parents[4] is 0");
    expect_refused(fork_parent_with_parent, SP_ERR_DAMAGED, "fork_parents[2] is 1");
}

/* Fork parents read back as written and join thread 1's solve rows to
 * thread 0's step: one tree, step > solve with every solve call, step's
 * exclusive time still its own thread's (per lane, as per call). */
static void fork_parents_make_one_tree(void **state) {
    (void)state;
    fixture fx;
    make(&fx, 3);
    sp_model m;
    sp_error err = {0};
    assert_int_equal(sp_read_model(fx.path, &m, &err), SP_OK);
    assert_int_equal(m.hist_forks, 1);
    size_t forked = 0;
    for (size_t i = 0; i < m.num_hists; i++) {
        assert_int_equal(m.hists[i].fork_parent, fx.aggregate.hists[i].fork_parent);
        forked += m.hists[i].fork_parent >= 0;
    }
    assert_int_equal(forked, 2); /* one per rank: rows 1 and 4 */
    assert_int_equal(fx.aggregate.hists[1].fork_parent, 0);
    assert_int_equal(fx.aggregate.hists[4].fork_parent, 3);
    sp_model_clear(&m);
    sp_results *r = sp_read(fx.path, &err);
    assert_non_null(r);
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 2);
    assert_string_equal(rows.rows[0].call_path, "step");
    assert_string_equal(rows.rows[1].call_path, "step > solve");
    assert_int_equal(rows.rows[1].calls, NUM_CALLS / 2);
    int64_t step = 0, solve = 0; /* exclusive: less thread 0's solve only */
    for (size_t i = 0; i < fx.aggregate.num_hists; i++) {
        const sp_model_hist *h = &fx.aggregate.hists[i];
        if (h->region == 0) step += h->total;
        if (h->region == 1 && h->parent >= 0) solve += h->total;
    }
    assert_true(rows.rows[0].exclusive == (step - solve) / 1e9);
    sp_table_rows_free(&rows);
    sp_results_free(r);
    release(&fx);
}

/* The optional per-path totals read back as written; a file without them
 * (written before) reads with none. */
static void path_totals_round_trip(void **state) {
    (void)state;
    for (int with = 1; with <= 2; with++) {
        fixture fx;
        make(&fx, with);
        sp_model m;
        sp_error err = {0};
        assert_int_equal(sp_read_model(fx.path, &m, &err), SP_OK);
        assert_int_equal(m.hist_totals, with == 2);
        assert_int_equal(m.hist_spread, with == 2);
        assert_int_equal(m.num_hists, fx.aggregate.num_hists);
        for (size_t i = 0; with == 2 && i < m.num_hists; i++) {
            assert_int_equal(m.hists[i].total, fx.aggregate.hists[i].total);
            assert_true(m.hists[i].m2 == fx.aggregate.hists[i].m2);
        }
        sp_model_clear(&m);
        /* the summary table: flat rows without totals, else the tree: step >
         * solve on thread 0, solve alone on thread 1 (its calls there have no
         * enclosing step) */
        sp_results *r = sp_read(fx.path, &err);
        assert_non_null(r);
        sp_table_rows rows;
        assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
        assert_int_equal(rows.count, with == 1 ? 2 : 3);
        if (with == 1) {
            assert_null(rows.rows[0].call_path);
            assert_null(rows.rows[1].call_path);
        } else {
            assert_string_equal(rows.rows[0].call_path, "step");
            assert_string_equal(rows.rows[1].call_path, "step > solve");
            assert_int_equal(rows.rows[1].depth, 1);
            assert_string_equal(rows.rows[2].call_path, "solve");
            assert_int_equal(rows.rows[1].calls + rows.rows[2].calls, NUM_CALLS / 2);
            assert_int_equal(rows.rows[0].calls, NUM_CALLS / 2);
            assert_int_equal(rows.rows[0].num_ranks, 2);
            assert_true(rows.rows[0].has_children);
            int64_t step = 0, solve = 0; /* solve: under step */
            for (size_t i = 0; i < fx.aggregate.num_hists; i++) {
                const sp_model_hist *h = &fx.aggregate.hists[i];
                if (h->region == 0) step += h->total;
                if (h->region == 1 && h->parent >= 0) solve += h->total;
            }
            assert_true(rows.rows[0].total == step / 1e9);
            assert_true(rows.rows[0].exclusive == (step - solve) / 1e9);
        }
        sp_table_rows_free(&rows);
        sp_results_free(r);
        release(&fx);
    }
}

int main(void) {
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percentiles_from_histograms),
        cmocka_unit_test(python_layout_without_histograms),
        cmocka_unit_test(damaged_extensions),
        cmocka_unit_test(path_totals_round_trip),
        cmocka_unit_test(fork_parents_make_one_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
