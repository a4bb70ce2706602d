/*
 * Aggregate mode (issue 17 item 2): the same deterministic workload, recorded
 * once per call and once aggregated on a test clock, gives equal counts,
 * totals, minimums, maximums, exclusive times, first/last and std, and
 * percentiles within the stated 1/128 of the exact ones; per-thread
 * histograms merge into the histogram of the union; memory does not grow
 * with the number of calls; SCOPE_PROFILER_AGGREGATE beats the option both
 * ways; the file has the Python package's aggregate layout (h5py).
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "analysis/analysis.h"
#include "format/reader.h"
#include "model/histogram.h"
#include "record/aggregate.h"
#include "record/clock.h"
#include "record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

/* Each thread's own test clock: durations are exactly what the workload says. */
static __thread uint64_t fake_now = 1000000;
static uint64_t fake_ticks(void) {
    return fake_now;
}

/* A deterministic, skewed duration: 200 ns to about 600 us. */
static uint64_t next_duration(uint64_t *state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(*state >> 11) / 9007199254740992.0;
    return 200 + (uint64_t)(exp(u * u * 8.0) * 200.0);
}

static void start(const char *path, int aggregate) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.clock = SP_CLOCK_MONOTONIC;
    opt.aggregate = aggregate;
    opt.journal = SP_JOURNAL_OFF;
    assert_int_equal(sp_setup(&opt), SP_OK);
}

static void rec(sp_region_t h, int depth, uint64_t *state) {
    sp_begin(h);
    fake_now += next_duration(state);
    if (depth > 1) rec(h, depth - 1, state);
    fake_now += 7;
    sp_end(h);
}

/* step { solve; io } (io every third step), then a recursion 3 deep. */
static void workload(int steps, uint64_t seed) {
    sp_region_t step = sp_region("step"), solve = sp_region("solve"), io = sp_region("io");
    sp_region_t r = sp_region("rec");
    uint64_t state = seed;
    for (int i = 0; i < steps; i++) {
        sp_begin(step);
        fake_now += 11;
        sp_begin(solve);
        fake_now += next_duration(&state);
        sp_end(solve);
        if (i % 3 == 0) {
            sp_begin(io);
            fake_now += next_duration(&state) / 4;
            sp_end(io);
        }
        fake_now += 13;
        sp_end(step);
    }
    for (int i = 0; i < 50; i++)
        rec(r, 3, &state);
}

static const sp_summary_row *row_named(const sp_summary_rows *rows, const char *name) {
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->rows[i].name, name) == 0) return &rows->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

/* The summary table with the region and percent columns, sorted by name. */
static char *percent_column(const sp_results *r) {
    static const char *const columns[] = {"region", "percent"};
    sp_print_options po = {0};
    po.sort = "name";
    po.columns = columns;
    po.num_columns = 2;
    po.suppress_notes = 1;
    po.ascii = 1;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    sp_error err;
    assert_int_equal(sp_print_summary(r, out, &po, &err), SP_OK);
    fclose(out);
    return text;
}

/* The table line of `name` with its spacing squeezed. */
static void line_of(const char *table, const char *name, char *out, size_t size) {
    char key[96];
    snprintf(key, sizeof key, "| %s ", name);
    const char *p = strstr(table, key);
    assert_non_null(p);
    size_t n = 0;
    for (; *p && *p != '\n' && n + 1 < size; p++)
        if (!(*p == ' ' && n && out[n - 1] == ' ')) out[n++] = *p;
    out[n] = '\0';
}

/* The fake clock's calls lie outside the real start and finalize times the
 * metadata keeps: without those two the reader holds no call against the run
 * (src/format/plausibility.c would drop them as damage). */
static void forget_run_times(const char *path) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t g = H5Gopen2(f, "/metadata", H5P_DEFAULT);
    assert_true(g >= 0);
    assert_true(H5Adelete(g, "start_time_ns") >= 0);
    assert_true(H5Adelete(g, "finalize_time_ns") >= 0);
    H5Gclose(g);
    H5Fclose(f);
}

static void record_file(const char *path, int aggregate) {
    fake_now = 1000000;
    sp_internal_clock_test_source(fake_ticks);
    start(path, aggregate);
    workload(20000, 42);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_internal_clock_test_source(NULL);
    forget_run_times(path);
}

static void assert_relative(double got, double want, double bound) {
    if (fabs(got - want) > bound * fabs(want))
        fail_msg("%.9g is not within %.3g of %.9g", got, bound, want);
}

/* The call-path rows of the default summary table are the same per call and
 * aggregated (from the histograms' per-path totals): paths in display order,
 * recursion folded, calls, totals and exclusive (own) times; percentiles within
 * the histograms' bound; aggregate rows have no first/last. */
static void assert_same_tree(const sp_results *exact, const sp_results *agg, size_t want_paths) {
    sp_table_rows a, b;
    sp_error err;
    assert_int_equal(sp_table_rows_build(exact, NULL, NULL, NULL, &a, &err), SP_OK);
    assert_int_equal(sp_table_rows_build(agg, NULL, NULL, NULL, &b, &err), SP_OK);
    assert_int_equal(a.count, b.count);
    size_t paths = 0;
    for (size_t i = 0; i < a.count; i++) {
        const sp_table_row *x = &a.rows[i], *y = &b.rows[i];
        assert_non_null(x->call_path);
        assert_non_null(y->call_path);
        assert_string_equal(x->call_path, y->call_path);
        paths++;
        assert_int_equal(x->depth, y->depth);
        assert_int_equal(x->recursive, y->recursive);
        assert_int_equal(x->has_children, y->has_children);
        assert_int_equal(x->num_ranks, y->num_ranks);
        assert_int_equal(x->calls, y->calls);
        assert_true(y->has_timing && y->has_exclusive && y->has_percentiles);
        assert_false(y->has_first_last);
        /* durations are whole ns on the test clock; per call, totals and
         * exclusive times are float sums of per-call seconds, aggregated the
         * exact integer sums: equal to the ns */
        if (llround(x->total * 1e9) != llround(y->total * 1e9))
            fail_msg("%s: total %.17g vs %.17g", x->call_path, x->total, y->total);
        if (llround(x->exclusive * 1e9) != llround(y->exclusive * 1e9))
            fail_msg("%s: exclusive %.17g vs %.17g", x->call_path, x->exclusive, y->exclusive);
        assert_true(x->min == y->min && x->max == y->max);
        assert_relative(y->std, x->std, 1e-9);
        assert_true(y->percentile_error == SP_HIST_RELATIVE_ERROR);
        assert_relative(y->p50, x->p50, SP_HIST_RELATIVE_ERROR);
        assert_relative(y->p99, x->p99, SP_HIST_RELATIVE_ERROR);
    }
    assert_int_equal(paths, want_paths);
    sp_table_rows_free(&a);
    sp_table_rows_free(&b);
}

/* The same workload per call and aggregated: equal facts, close percentiles. */
static void same_workload_both_modes(void **state) {
    rs_fixture *f = *state;
    char *per_call = rs_path_in(f->dir, "per_call.h5");
    char *aggregated = rs_path_in(f->dir, "aggregate.h5");
    record_file(per_call, 0);
    record_file(aggregated, 1);

    sp_error err;
    sp_results *exact = sp_read(per_call, &err);
    sp_results *agg = sp_read(aggregated, &err);
    assert_non_null(exact);
    assert_non_null(agg);
    sp_model m;
    assert_int_equal(sp_read_model(aggregated, &m, &err), SP_OK);
    assert_int_equal(m.layout, SP_LAYOUT_AGGREGATE);
    assert_int_equal(m.num_events, 0);
    /* step, solve, io, rec x3 paths, the session: one histogram each */
    assert_int_equal(m.num_hists, 7);
    assert_true(m.hist_totals); /* per path, adding up to the index's (the reader checks) */
    sp_model_clear(&m);

    sp_summary_rows *a = sp_results_summary(exact, NULL, 0, &err);
    sp_summary_rows *b = sp_results_summary(agg, NULL, 0, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->count, b->count);
    static const char *const names[] = {"scope_profiler.session", "step", "solve", "io", "rec"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const sp_summary_row *x = row_named(a, names[i]), *y = row_named(b, names[i]);
        assert_int_equal(x->num_calls, y->num_calls);
        assert_true(x->total_duration == y->total_duration);
        assert_true(x->min_duration == y->min_duration);
        assert_true(x->max_duration == y->max_duration);
        assert_true(x->first_duration == y->first_duration);
        assert_true(x->last_duration == y->last_duration);
        assert_true(y->has_exclusive);
        assert_true(x->exclusive_duration == y->exclusive_duration);
        assert_relative(y->std_duration, x->std_duration, 1e-9);
        assert_true(y->has_percentiles);
        assert_true(x->percentile_error == 0.0);
        assert_true(y->percentile_error == SP_HIST_RELATIVE_ERROR);
        assert_relative(y->p50_duration, x->p50_duration, SP_HIST_RELATIVE_ERROR);
        assert_relative(y->p95_duration, x->p95_duration, SP_HIST_RELATIVE_ERROR);
        assert_relative(y->p99_duration, x->p99_duration, SP_HIST_RELATIVE_ERROR);
    }
    assert_int_equal(row_named(b, "solve")->num_calls, 20000);
    /* % session: the aggregate file's totals stand in for the covered time,
     * the same as per call for regions that do not recurse */
    char *ta = percent_column(exact), *tb = percent_column(agg);
    static const char *const flat[] = {"scope_profiler.session", "step", "solve", "io"};
    for (size_t i = 0; i < sizeof flat / sizeof *flat; i++) {
        char line_a[128], line_b[128];
        line_of(ta, flat[i], line_a, sizeof line_a);
        line_of(tb, flat[i], line_b, sizeof line_b);
        assert_string_equal(line_a, line_b);
    }
    char session[128];
    line_of(tb, "scope_profiler.session", session, sizeof session);
    if (!strstr(session, " 100.00% ")) fail_msg("%s", tb);
    free(ta);
    free(tb);
    assert_int_equal(row_named(b, "io")->num_calls, 6667);
    assert_int_equal(row_named(b, "rec")->num_calls, 150);
    /* session, step, solve, io, rec (folded, 150 calls) */
    assert_same_tree(exact, agg, 5);
    sp_summary_rows_free(a);
    sp_summary_rows_free(b);
    sp_results_free(exact);
    sp_results_free(agg);
    free(per_call);
    free(aggregated);
}

/* Deeper than the first scratch and stack (recursion 40 deep), a mismatched
 * sp_end that drops a call, a call still open at finalize with a completed
 * child: both modes leave out the same calls and agree on the rest. */
static void edge_workload(void) {
    sp_region_t r = sp_region("deep"), a = sp_region("a"), b = sp_region("b");
    sp_region_t open = sp_region("open"), child = sp_region("child");
    uint64_t state = 9;
    for (int i = 0; i < 20; i++)
        rec(r, 40, &state);
    sp_begin(a);
    fake_now += 100;
    sp_begin(b);
    fake_now += 50;
    sp_end(a); /* b is dropped */
    sp_begin(b);
    fake_now += 70;
    sp_end(b);
    sp_begin(open);
    fake_now += 10;
    for (int i = 0; i < 5; i++) {
        sp_begin(child);
        fake_now += next_duration(&state);
        sp_end(child);
    }
}

static void record_edges(const char *path, int aggregate, char **messages) {
    fake_now = 1000000;
    sp_internal_clock_test_source(fake_ticks);
    start(path, aggregate);
    rs_capture_stderr_begin();
    edge_workload();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    *messages = rs_capture_stderr_end();
    sp_internal_clock_test_source(NULL);
    forget_run_times(path);
}

static void edge_cases_match_per_call(void **state) {
    rs_fixture *f = *state;
    char *per_call = rs_path_in(f->dir, "per_call.h5");
    char *aggregated = rs_path_in(f->dir, "aggregate.h5");
    char *said_per_call, *said_aggregate;
    record_edges(per_call, 0, &said_per_call);
    record_edges(aggregated, 1, &said_aggregate);
    static const char *const left_out[] = {
        "1 call(s) still open at finalize were left out: \"open\" (thread 0, depth 0)",
        "1 call(s) dropped by mismatched sp_end() were left out"};
    for (int i = 0; i < 2; i++) {
        if (!strstr(said_per_call, left_out[i])) fail_msg("per call: %s", said_per_call);
        if (!strstr(said_aggregate, left_out[i])) fail_msg("aggregate: %s", said_aggregate);
    }
    sp_error err;
    sp_results *exact = sp_read(per_call, &err);
    sp_results *agg = sp_read(aggregated, &err);
    assert_non_null(exact);
    assert_non_null(agg);
    sp_summary_rows *x = sp_results_summary(exact, NULL, 0, &err);
    sp_summary_rows *y = sp_results_summary(agg, NULL, 0, &err);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(x->count, y->count);
    static const char *const names[] = {"scope_profiler.session", "deep", "a", "b", "child"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const sp_summary_row *p = row_named(x, names[i]), *q = row_named(y, names[i]);
        assert_int_equal(p->num_calls, q->num_calls);
        assert_true(p->total_duration == q->total_duration);
        assert_true(p->min_duration == q->min_duration);
        assert_true(p->max_duration == q->max_duration);
        assert_true(p->exclusive_duration == q->exclusive_duration);
        assert_relative(q->p50_duration, p->p50_duration, SP_HIST_RELATIVE_ERROR);
    }
    assert_int_equal(row_named(y, "deep")->num_calls, 800);
    assert_int_equal(row_named(y, "b")->num_calls, 1);
    assert_int_equal(row_named(y, "child")->num_calls, 5);
    /* session, deep (40 deep, folded), a, b, child: left-out calls alike */
    assert_same_tree(exact, agg, 5);
    sp_model m;
    assert_int_equal(sp_read_model(aggregated, &m, &err), SP_OK);
    size_t deep_paths = 0;
    for (size_t i = 0; i < m.num_hists; i++) {
        const char *name = m.region_names[m.hists[i].region];
        deep_paths += strcmp(name, "deep") == 0;
        /* the open call has no row: its child hangs from the session root */
        if (strcmp(name, "child") == 0)
            assert_string_equal(m.region_names[m.hists[m.hists[i].parent].region],
                                "scope_profiler.session");
    }
    assert_int_equal(deep_paths, 40);
    sp_model_clear(&m);
    sp_summary_rows_free(x);
    sp_summary_rows_free(y);
    sp_results_free(exact);
    sp_results_free(agg);
    free(said_per_call);
    free(said_aggregate);
    free(per_call);
    free(aggregated);
}

#define NUM_WORKERS 3

static void *worker(void *arg) {
    uintptr_t k = (uintptr_t)arg;
    fake_now = 5000000 * (k + 1);
    workload(3000 + 1000 * (int)k, 100 + k);
    return NULL;
}

/* The durations worker k (or the main thread, k = NUM_WORKERS) gives region
 * `which` (0 solve, 1 io), added to h. */
static void expected_durations(uintptr_t k, int which, sp_hist *h) {
    uint64_t state = 100 + k;
    int steps = 3000 + 1000 * (int)k;
    for (int i = 0; i < steps; i++) {
        uint64_t solve = next_duration(&state);
        if (which == 0) assert_int_equal(sp_hist_add(h, (int64_t)solve), SP_OK);
        if (i % 3 == 0) {
            uint64_t io = next_duration(&state) / 4;
            if (which == 1) assert_int_equal(sp_hist_add(h, (int64_t)io), SP_OK);
        }
    }
}

/* Three workers and the main thread: per-thread histograms in the file; their
 * merge is the histogram of all calls; each thread's is its own calls'. */
static void threads_merge_to_union(void **state) {
    rs_fixture *f = *state;
    sp_internal_clock_test_source(fake_ticks);
    start(f->path, 1);
    pthread_t tid[NUM_WORKERS];
    for (uintptr_t k = 0; k < NUM_WORKERS; k++)
        assert_int_equal(pthread_create(&tid[k], NULL, worker, (void *)k), 0);
    for (int k = 0; k < NUM_WORKERS; k++)
        pthread_join(tid[k], NULL);
    fake_now = 90000000;
    workload(3000 + 1000 * NUM_WORKERS, 100 + NUM_WORKERS);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_internal_clock_test_source(NULL);

    sp_model m;
    sp_error err;
    assert_int_equal(sp_read_model(f->path, &m, &err), SP_OK);
    assert_int_equal(m.num_threads, NUM_WORKERS + 1);
    static const char *const names[] = {"solve", "io"};
    for (int which = 0; which < 2; which++) {
        uint32_t region = UINT32_MAX;
        for (uint32_t i = 0; i < m.num_regions; i++)
            if (strcmp(m.region_names[i], names[which]) == 0) region = i;
        assert_true(region != UINT32_MAX);
        sp_hist merged = SP_HIST_INIT, want = SP_HIST_INIT;
        int rows = 0;
        for (size_t i = 0; i < m.num_hists; i++) {
            if (m.hists[i].region != region) continue;
            rows++;
            assert_int_equal(sp_hist_merge(&merged, &m.hists[i].hist), SP_OK);
            /* which workload the thread ran follows from its solve count */
            uint64_t steps = 0;
            for (size_t j = 0; j < m.num_hists; j++)
                if (m.hists[j].thread == m.hists[i].thread &&
                    strcmp(m.region_names[m.hists[j].region], "solve") == 0)
                    steps = m.hists[j].hist.count;
            uintptr_t k = (uintptr_t)(steps - 3000) / 1000;
            assert_true(k <= NUM_WORKERS);
            sp_hist own = SP_HIST_INIT;
            expected_durations(k, which, &own);
            assert_true(sp_hist_equal(&own, &m.hists[i].hist));
            sp_hist_free(&own);
        }
        assert_int_equal(rows, NUM_WORKERS + 1);
        for (uintptr_t k = 0; k <= NUM_WORKERS; k++)
            expected_durations(k, which, &want);
        assert_true(sp_hist_equal(&merged, &want));
        sp_hist_free(&merged);
        sp_hist_free(&want);
    }
    sp_model_clear(&m);
#if defined(__SANITIZE_THREAD__)
    return; /* TSan builds do not intercept pthread_create (record/fork_point.c): no fork points */
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return;
#endif
#endif
    /* The tree: the workers, created while the session's call is open, hang
     * under it (their fork point, docs/parallel.md §1), so step merges the
     * main thread's and the 3 workers' calls. */
    sp_results *r = sp_read(f->path, &err);
    assert_non_null(r);
    sp_table_rows t;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &t, &err), SP_OK);
    static const char *const paths[] = {"scope_profiler.session", "scope_profiler.session > step",
                                        "scope_profiler.session > step > solve",
                                        "scope_profiler.session > step > io",
                                        "scope_profiler.session > rec"};
    assert_int_equal(t.count, sizeof paths / sizeof *paths);
    for (size_t i = 0; i < t.count; i++)
        assert_string_equal(t.rows[i].call_path, paths[i]);
    assert_int_equal(t.rows[1].calls, 3000 + 4000 + 5000 + 6000);
    assert_int_equal(t.rows[1].threads, NUM_WORKERS + 1); /* threads with calls of the path */
    /* exclusive time stays per thread: the session's own time is the main
     * thread's outside its own step and rec calls, so within its total */
    assert_true(t.rows[0].exclusive > 0 && t.rows[0].exclusive < t.rows[0].total);
    sp_table_rows_free(&t);
    sp_results_free(r);
}

static long resident_bytes(void) {
    long pages = 0, resident = 0;
    FILE *fp = fopen("/proc/self/statm", "r");
    if (fp) {
        if (fscanf(fp, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(fp);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

static void loop_calls(sp_region_t outer, sp_region_t inner, uint64_t n, uint64_t *state) {
    for (uint64_t i = 0; i < n; i++) {
        sp_begin(outer);
        sp_begin(inner);
        fake_now += next_duration(state);
        sp_end(inner);
        fake_now += 3;
        sp_end(outer);
    }
}

/* 1e5 and then 1e6 calls: the aggregate state and the resident set stay put. */
static void memory_independent_of_calls(void **state) {
    rs_fixture *f = *state;
    sp_internal_clock_test_source(fake_ticks);
    start(f->path, 1);
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    uint64_t s = 7;
    loop_calls(outer, inner, 100000, &s);
    uint64_t bytes = sp_internal_agg_bytes();
    /* nothing to reserve in aggregate mode: no call is stored */
    assert_int_equal(sp_reserve(inner, 1000000), SP_OK);
    assert_int_equal(sp_internal_agg_bytes(), bytes);
    long rss = resident_bytes();
    loop_calls(outer, inner, 900000, &s);
    assert_int_equal(sp_internal_agg_bytes(), bytes);
    long grown = resident_bytes() - rss;
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) /* their bookkeeping grows it  \
                                                                     */
    assert_true(grown <= 2 * sysconf(_SC_PAGESIZE));
#else
    (void)grown;
#endif
    assert_true(bytes < 64 * 1024); /* three paths and a session: a few histogram windows */
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_internal_clock_test_source(NULL);
}

static sp_layout layout_of(const char *path) {
    sp_model m;
    sp_error err;
    assert_int_equal(sp_read_model(path, &m, &err), SP_OK);
    sp_layout l = m.layout;
    sp_model_clear(&m);
    return l;
}

static sp_layout record_with(const char *path, int option, const char *env) {
    if (env)
        setenv("SCOPE_PROFILER_AGGREGATE", env, 1);
    else
        unsetenv("SCOPE_PROFILER_AGGREGATE");
    start(path, option);
    sp_region_t h = sp_region("work");
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    unsetenv("SCOPE_PROFILER_AGGREGATE");
    return layout_of(path);
}

/* The variable wins over the option both ways; a malformed one is ignored. */
static void environment_precedence(void **state) {
    rs_fixture *f = *state;
    assert_int_equal(record_with(f->path, 0, NULL), SP_LAYOUT_COLUMNAR);
    assert_int_equal(record_with(f->path, 1, NULL), SP_LAYOUT_AGGREGATE);
    assert_int_equal(record_with(f->path, 0, "1"), SP_LAYOUT_AGGREGATE);
    assert_int_equal(record_with(f->path, 0, "yes"), SP_LAYOUT_AGGREGATE);
    assert_int_equal(record_with(f->path, 1, "0"), SP_LAYOUT_COLUMNAR);
    assert_int_equal(record_with(f->path, 1, "off"), SP_LAYOUT_COLUMNAR);
    rs_capture_stderr_begin();
    sp_layout l = record_with(f->path, 1, "maybe");
    char *text = rs_capture_stderr_end();
    assert_int_equal(l, SP_LAYOUT_AGGREGATE);
    assert_non_null(strstr(text, "scope-profiler: ignoring SCOPE_PROFILER_AGGREGATE=\"maybe\": "
                                 "expected 1, true, yes, on, 0, false, no or off"));
    free(text);
}

/* fork() inside an aggregate session: the child's own per-call session
 * records per call; the parent's aggregate file has only its calls. */
static void fork_child_records_per_call(void **state) {
    rs_fixture *f = *state;
    char *child_path = rs_path_in(f->dir, "child.h5");
    start(f->path, 1);
    sp_region_t h = sp_region("work");
    for (int i = 0; i < 5; i++) {
        sp_begin(h);
        sp_end(h);
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sp_options opt = SP_OPTIONS_INIT;
        opt.file_path = child_path;
        opt.journal = SP_JOURNAL_OFF;
        if (sp_setup(&opt) != SP_OK) _exit(2);
        for (int i = 0; i < 3; i++) {
            sp_begin(h);
            sp_end(h);
        }
        if (sp_finalize(&quiet) != SP_OK) _exit(3);
        sp_model m;
        sp_error err;
        if (sp_read_model(child_path, &m, &err) != SP_OK) _exit(4);
        int ok = m.layout == SP_LAYOUT_COLUMNAR && m.num_events == 3 + 1; /* and the session */
        sp_model_clear(&m);
        _exit(ok ? 0 : 5);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_error err;
    sp_results *r = sp_read(f->path, &err);
    assert_non_null(r);
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    assert_int_equal(row_named(rows, "work")->num_calls, 6);
    assert_int_equal(layout_of(f->path), SP_LAYOUT_AGGREGATE);
    sp_summary_rows_free(rows);
    sp_results_free(r);
    free(child_path);
}

#ifdef SP_CLI_PATH
/* Runs the CLI; its stderr into *said (malloc'ed). Returns the exit status. */
static int run_cli(const char *args, char **said) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1 >/dev/null", SP_CLI_PATH, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, p);
    text[n] = '\0';
    int status = pclose(p);
    *said = text;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Three per-process aggregate files (the serial library under a launcher)
 * merge into one: per-rank histograms as recorded, merged = the union. */
static void per_rank_files_merge(void **state) {
    rs_fixture *f = *state;
    char *base = rs_path_in(f->dir, "run.h5");
    setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
    for (int rank = 0; rank < 3; rank++) {
        char value[8];
        snprintf(value, sizeof value, "%d", rank);
        setenv("OMPI_COMM_WORLD_RANK", value, 1);
        fake_now = 1000000;
        sp_internal_clock_test_source(fake_ticks);
        rs_capture_stderr_begin(); /* the per-process note */
        start(base, 1);
        workload(1000 + 500 * rank, 100 + (uint64_t)rank);
        assert_int_equal(sp_finalize(&quiet), SP_OK);
        free(rs_capture_stderr_end());
        sp_internal_clock_test_source(NULL);
    }
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("OMPI_COMM_WORLD_RANK");
    char args[8192], *said;
    snprintf(args, sizeof args, "merge '%s'/run.rank*.h5 -o '%s/merged.h5'", f->dir, f->dir);
    assert_int_equal(run_cli(args, &said), 0);
    free(said);
    char *merged = rs_path_in(f->dir, "merged.h5");
    sp_model m;
    sp_error err;
    assert_int_equal(sp_read_model(merged, &m, &err), SP_OK);
    assert_int_equal(m.layout, SP_LAYOUT_AGGREGATE);
    const sp_meta_entry *size = sp_model_meta_find(&m, "mpi_size");
    assert_non_null(size);
    assert_int_equal(size->i, 3);
    assert_true(m.hist_totals); /* every input has per-path totals: merge keeps them */
    uint32_t solve = UINT32_MAX;
    for (uint32_t i = 0; i < m.num_regions; i++)
        if (strcmp(m.region_names[i], "solve") == 0) solve = i;
    sp_hist all = SP_HIST_INIT, want_all = SP_HIST_INIT;
    for (uint32_t rank = 0; rank < 3; rank++) {
        sp_hist got = SP_HIST_INIT, want = SP_HIST_INIT;
        for (size_t i = 0; i < m.num_hists; i++)
            if (m.hists[i].rank == rank && m.hists[i].region == solve)
                assert_int_equal(sp_hist_merge(&got, &m.hists[i].hist), SP_OK);
        uint64_t state_ = 100 + rank;
        for (int i = 0; i < 1000 + 500 * (int)rank; i++) {
            assert_int_equal(sp_hist_add(&want, (int64_t)next_duration(&state_)), SP_OK);
            if (i % 3 == 0) next_duration(&state_);
        }
        assert_true(sp_hist_equal(&got, &want));
        assert_int_equal(sp_hist_merge(&all, &got), SP_OK);
        assert_int_equal(sp_hist_merge(&want_all, &want), SP_OK);
        sp_hist_free(&got);
        sp_hist_free(&want);
    }
    assert_true(sp_hist_equal(&all, &want_all));
    assert_int_equal(all.count, 1000 + 1500 + 2000);
    sp_hist_free(&all);
    sp_hist_free(&want_all);
    sp_model_clear(&m);

    /* with a per-call file: refused; with the Python package's aggregate
     * file (no histograms, ranks 0 and 1): merged without histograms */
    snprintf(args, sizeof args, "merge '%s/run.rank0.h5' '%s/py_tutorial2.h5' -o '%s/x.h5'", f->dir,
             SP_FIXTURES_DIR, f->dir);
    assert_int_equal(run_cli(args, &said), 2);
    assert_non_null(strstr(said, "holds aggregate statistics only (storage_layout \"aggregate\") "
                                 "and "));
    assert_non_null(strstr(said, "per-call events: merge joins files of one layout"));
    free(said);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' '%s/../cli/python_aggregate/make_aggregate.py' '%s/py.h5'",
             SP_SYSTEM_PYTHON, SP_TEST_SOURCE_DIR, f->dir);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "merge '%s/py.h5' '%s/run.rank2.h5' -o '%s/y.h5'", f->dir, f->dir,
             f->dir);
    assert_int_equal(run_cli(args, &said), 0);
    assert_non_null(strstr(said, "py.h5 has no duration histograms, so the merged file has none "
                                 "(no percentiles)"));
    free(said);
    char *y = rs_path_in(f->dir, "y.h5");
    assert_int_equal(sp_read_model(y, &m, &err), SP_OK);
    assert_int_equal(m.num_hists, 0);
    assert_int_equal(m.num_rows, 2 * 3 + 5); /* 3 regions on ranks 0 and 1, 5 on rank 2 */
    sp_model_clear(&m);
    free(y);
    free(merged);
    free(base);
}
#endif

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The real clock (the TSC where usable, its rate measured at sp_setup for
 * the histograms): busy waits of 2 ms come out as 2 ms. */
static void real_clock_durations(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.aggregate = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region("wait");
    double outside[10]; /* each call's duration seen from outside it, to bound it above */
    for (int i = 0; i < 10; i++) {
        int64_t t0 = rs_now_ns();
        sp_begin(h);
        rs_busy_wait_ns(2000000);
        sp_end(h);
        outside[i] = (double)(rs_now_ns() - t0) / 1e9;
    }
    qsort(outside, 10, sizeof *outside, compare_doubles);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_error err;
    sp_results *r = sp_read(f->path, &err);
    assert_non_null(r);
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    const sp_summary_row *w = row_named(rows, "wait");
    assert_int_equal(w->num_calls, 10);
    /* at least the wait (less the clocks' calibration error), at most what
     * the clock outside the calls saw (however loaded the machine) */
    const double calibration = 1e-3;
    assert_true(w->min_duration >= 0.002 * (1 - calibration));
    assert_true(w->max_duration <= outside[9] * (1 + calibration));
    assert_true(w->p50_duration >= 0.002 * (1 - SP_HIST_RELATIVE_ERROR - calibration));
    /* numpy's median of 10 lies between the 5th and 6th shortest */
    assert_true(w->p50_duration <= outside[5] * (1 + SP_HIST_RELATIVE_ERROR + calibration));
    double outside_total = 0;
    for (int i = 0; i < 10; i++)
        outside_total += outside[i];
    assert_true(w->total_duration >= 0.02 * (1 - calibration));
    assert_true(w->total_duration <= outside_total * (1 + calibration));
    assert_true(w->p50_duration >= w->min_duration * (1 - SP_HIST_RELATIVE_ERROR));
    assert_true(w->p50_duration <= w->max_duration * (1 + SP_HIST_RELATIVE_ERROR));
    sp_summary_rows_free(rows);
    sp_results_free(r);
}

/* A journal asked for is not made, and stderr says so once. */
static void journal_not_made(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.aggregate = 1;
    opt.journal = SP_JOURNAL_ON;
    rs_capture_stderr_begin();
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region("work");
    sp_begin(h);
    char listing[4096];
    snprintf(listing, sizeof listing, "ls '%s' | grep -c journal", f->dir);
    FILE *p = popen(listing, "r");
    int journals = -1;
    assert_int_equal(fscanf(p, "%d", &journals), 1);
    pclose(p);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    char *text = rs_capture_stderr_end();
    assert_int_equal(journals, 0);
    assert_int_equal(rs_count(text, "scope-profiler: aggregate mode keeps no journal (the journal "
                                    "asked for is not made): a killed run leaves nothing to "
                                    "recover\n"),
                     1);
    free(text);
    assert_int_equal(layout_of(f->path), SP_LAYOUT_AGGREGATE);
}

/* h5py (Debian's python3) finds the Python package's aggregate layout in our file. */
static void python_layout(void **state) {
    rs_fixture *f = *state;
    char *ours = rs_path_in(f->dir, "ours.h5");
    record_file(ours, 1);
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "'%s' '%s/check_aggregate_layout.py' '%s' "
             "'%s/../cli/python_aggregate/make_aggregate.py' '%s/python.h5'",
             SP_SYSTEM_PYTHON, SP_TEST_SOURCE_DIR, ours, SP_TEST_SOURCE_DIR, f->dir);
    assert_int_equal(system(cmd), 0);
    free(ours);
}

/* A failed test must not leave its session running into the next one. */
static int teardown(void **state) {
    if (sp_is_active()) sp_finalize(&quiet);
    sp_internal_clock_test_source(NULL);
    return rs_teardown_dir(state);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(same_workload_both_modes, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(edge_cases_match_per_call, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(threads_merge_to_union, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(memory_independent_of_calls, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(environment_precedence, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(real_clock_durations, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(journal_not_made, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(fork_child_records_per_call, rs_setup_dir, teardown),
        cmocka_unit_test_setup_teardown(python_layout, rs_setup_dir, teardown),
#ifdef SP_CLI_PATH
        cmocka_unit_test_setup_teardown(per_rank_files_merge, rs_setup_dir, teardown),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
