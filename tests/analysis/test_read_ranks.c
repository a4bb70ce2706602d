/*
 * Rank-selective reading (sp_read_ranks, issue 17): only the chosen ranks'
 * events are read from the file, and every answer restricted to those ranks
 * (summary rows pooled and per rank, CSV, the table, the balance JSON) is
 * byte for byte what a whole-file read gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "model/results_model.h"
#include "format/writer.h"
#include "model_builder.h"

/* Everything the CLI prints for a selection, as one text. */
static char *outputs(const sp_results *r, const uint32_t *ranks, size_t n) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    sp_filter filter = {0};
    filter.ranks = ranks;
    filter.num_ranks = n;
    sp_error err = {0};
    assert_int_equal(sp_write_summary_json(r, f, &filter, 0, &err), SP_OK);
    assert_int_equal(sp_write_summary_json(r, f, &filter, 1, &err), SP_OK);
    assert_int_equal(sp_write_summary_csv(r, f, &filter, 1, &err), SP_OK);
    sp_print_options po = {0};
    static const char *const columns[] = {"region", "ranks", "calls", "total",    "avg",
                                          "std",    "p50",   "p99",   "imbalance"};
    po.columns = columns;
    po.num_columns = sizeof columns / sizeof *columns;
    po.filter = filter;
    assert_int_equal(sp_print_summary(r, f, &po, &err), SP_OK);
    assert_int_equal(sp_write_balance_json(r, f, &filter, &err), SP_OK);
    fprintf(f, "span %.17g ranks %zu\n", sp_results_time_span(r), sp_results_num_ranks(r));
    fclose(f);
    return text;
}

static void check_same(const char *path, const uint32_t *ranks, size_t n, int expect_partial) {
    sp_error err = {0};
    sp_results *whole = sp_read(path, &err);
    if (!whole) fail_msg("%s", err.message);
    sp_results *part = sp_read_ranks(path, ranks, n, &err);
    if (!part) fail_msg("%s", err.message);
    const sp_model *m = sp_results_model(part);
    uint64_t wanted = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        for (size_t k = 0; k < n; k++)
            if (m->rows[i].rank == ranks[k]) wanted += m->rows[i].count;
    if (expect_partial) {
        assert_int_equal(m->num_events_loaded, wanted);
        assert_true(wanted < m->num_events);
        for (size_t i = 0; i < m->num_rows; i++) { /* other ranks' events were not read */
            int kept = 0;
            for (size_t k = 0; k < n; k++)
                kept |= m->rows[i].rank == ranks[k];
            assert_int_equal(m->rows[i].events_skipped, !kept && m->rows[i].count);
            for (uint64_t e = 0; !kept && e < m->rows[i].count; e++)
                assert_int_equal(m->durations[m->rows[i].offset + e], 0);
        }
    } else {
        assert_int_equal(m->num_events_loaded, m->num_events);
    }
    char *a = outputs(whole, ranks, n), *b = outputs(part, ranks, n);
    size_t at = 0;
    while (a[at] && a[at] == b[at])
        at++;
    size_t from = at > 300 ? at - 300 : 0;
    if (a[at] || b[at])
        fail_msg("%s: outputs differ at byte %zu:\n--- whole\n%.400s\n--- part\n%.400s", path, at,
                 a + from, b + from);
    free(a);
    free(b);
    sp_results_free(whole);
    sp_results_free(part);
}

static void fixture_path(char *buf, size_t size, const char *stem) {
    snprintf(buf, size, "%s/%s.h5", SP_FIXTURES_DIR, stem);
}

static void multirank_fixture(void **state) {
    (void)state;
    char path[512];
    fixture_path(path, sizeof path, "multirank_schema3");
    static const uint32_t r1[] = {1}, r02[] = {2, 0}, r12[] = {1, 2};
    check_same(path, r1, 1, 1);
    check_same(path, r02, 2, 1);
    check_same(path, r12, 2, 1);
}

/* Single-rank files: choosing the one rank reads everything; schema 1
 * (no stored statistics) is always read whole. */
static void other_fixtures(void **state) {
    (void)state;
    char path[512];
    static const uint32_t r0[] = {0}, r1[] = {1};
    fixture_path(path, sizeof path, "py_tutorial2");
    check_same(path, r0, 1, 0);
    fixture_path(path, sizeof path, "c_schema2");
    check_same(path, r0, 1, 0);
    fixture_path(path, sizeof path, "legacy_schema1");
    check_same(path, r1, 1, 0);
}

/* Four ranks with nesting, rows in a shuffled rank order, written compressed;
 * with_threads adds thread ids, and then the whole file is read. */
static void four_ranks(int with_threads) {
    static const char *const regions[] = {"step", "work", "io"};
    mb_call calls[4 * 3 * 3];
    size_t n = 0;
    int64_t io_thread = with_threads ? 1 : MB_NO_THREAD, thread = with_threads ? 0 : MB_NO_THREAD;
    for (uint32_t rank = 0; rank < 4; rank++)
        for (int k = 0; k < 3; k++) {
            int64_t t = 1000 * k + 10 * rank;
            calls[n++] = (mb_call){0, rank, t, t + 900 + rank * 7, thread};
            calls[n++] = (mb_call){1, rank, t + 10, t + 400 + k * 3, thread};
            calls[n++] = (mb_call){2, rank, t + 500, t + 600 + rank, io_thread};
        }
    static const uint32_t order[] = {2, 0, 3, 1};
    mb_spec spec = {.regions = regions,
                    .num_regions = 3,
                    .calls = calls,
                    .num_calls = n,
                    .with_threads = with_threads,
                    .rank_order = order,
                    .num_rank_order = 4,
                    .mpi_size = 4};
    sp_model m;
    mb_model(&spec, &m);
    char path[] = "/tmp/test_read_ranks_XXXXXX.h5";
    int fd = mkstemps(path, 3);
    assert_true(fd >= 0);
    close(fd);
    sp_write_options options = {SP_COMPRESSION_GZIP, 4};
    sp_error err = {0};
    if (sp_write_model(&m, path, &options, &err) != SP_OK) fail_msg("%s", err.message);
    sp_model_clear(&m);
    static const uint32_t r3[] = {3}, r02[] = {0, 2}, r013[] = {0, 1, 3}, none[] = {7};
    check_same(path, r3, 1, !with_threads);
    check_same(path, r02, 2, !with_threads);
    check_same(path, r013, 3, !with_threads);
    sp_results *r = sp_read_ranks(path, none, 1, &err); /* a rank without data */
    assert_non_null(r);
    assert_int_equal(sp_results_model(r)->num_events_loaded, with_threads ? n : 0);
    assert_int_equal(sp_results_num_data_ranks(r), 4);
    sp_results_free(r);
    unlink(path);
}

static void single_threaded_ranks(void **state) {
    (void)state;
    four_ranks(0);
}

static void threaded_ranks_read_whole(void **state) {
    (void)state;
    four_ranks(1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multirank_fixture),
        cmocka_unit_test(other_fixtures),
        cmocka_unit_test(single_threaded_ranks),
        cmocka_unit_test(threaded_ranks_read_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
