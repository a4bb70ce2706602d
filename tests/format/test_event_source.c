/* The streamed read (src/format/event_source.c, issue 29 item 5): every
 * window holds exactly the calls a whole read gives, files that need a
 * repair or lack what streaming relies on are read whole, damage gives the
 * whole read's message, and no HDF5 object outlives the model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <hdf5.h>

#include "format/reader.h"
#include "format/writer.h"
#include "format_support.h"
#include "model/event_window.h"

static void read_streamed(const char *path, sp_model *m) {
    sp_error err;
    sp_status st = sp_read_model_streamed(path, m, &err);
    if (st) fail_msg("streaming %s failed: %s", path, err.message);
}

static void assert_same_slice(const int64_t *a, const int64_t *b, uint64_t n) {
    assert_true((a == NULL) == (b == NULL));
    for (uint64_t i = 0; a && i < n; i++)
        assert_int_equal(a[i], b[i]);
}

/* Every row alone, and the rows in batches, give the whole read's calls. */
static void assert_windows_equal(const sp_model *whole, const sp_model *streamed) {
    assert_non_null(streamed->event_source);
    assert_null(streamed->starts);
    assert_int_equal(streamed->num_events, whole->num_events);
    assert_int_equal(streamed->num_rows, whole->num_rows);
    sp_event_window w = SP_EVENT_WINDOW_INIT;
    sp_error err;
    for (size_t r = 0; r < streamed->num_rows; r++) {
        const sp_model_row *row = &streamed->rows[r];
        assert_int_equal(row->offset, whole->rows[r].offset);
        assert_int_equal(row->count, whole->rows[r].count);
        assert_int_equal(row->stats.total, whole->rows[r].stats.total);
        assert_int_equal(sp_model_events(streamed, r, r + 1, &w, &err), SP_OK);
        assert_int_equal(w.first, row->offset);
        assert_int_equal(w.count, row->count);
        uint64_t at = row->offset;
        assert_same_slice(w.starts, whole->starts + at, row->count);
        assert_same_slice(w.durations, whole->durations + at, row->count);
        assert_same_slice(w.call_ids, whole->call_ids ? whole->call_ids + at : NULL, row->count);
        assert_same_slice(w.parent_ids, whole->parent_ids ? whole->parent_ids + at : NULL,
                          row->count);
    }
    assert_int_equal(sp_model_events(streamed, 0, streamed->num_rows, &w, &err), SP_OK);
    assert_int_equal(w.first, 0);
    assert_same_slice(w.starts, whole->starts, whole->num_events);
    assert_same_slice(w.durations, whole->durations, whole->num_events);
    sp_event_window_free(&w);
    assert_int_equal(streamed->num_meta, whole->num_meta);
}

static void check_file(const char *path) {
    long before = fs_open_ids();
    sp_model whole, streamed;
    fs_read_ok(path, &whole);
    read_streamed(path, &streamed);
    assert_windows_equal(&whole, &streamed);
    sp_model_clear(&streamed);
    sp_model_clear(&whole);
    assert_int_equal(fs_open_ids(), before);
}

static const char *fixture(const char *stem) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    return path;
}

static void test_basic(void **state) {
    (void)state;
    const char *path = fs_path("basic.h5");
    fs_write_basic(path);
    check_file(path);
}

/* Schema 3 with call and parent ids (Python), schema 2's end times, several ranks. */
static void test_fixtures(void **state) {
    (void)state;
    check_file(fixture("py_tutorial2"));
    check_file(fixture("c_schema2"));
    check_file(fixture("multirank_schema3"));
}

/* Rows bigger than a batch, and batches of several rows. */
static void test_batches(void **state) {
    (void)state;
    static const char *const names[] = {"big", "small"};
    sp_model m;
    fs_model_init(&m, names, 2);
    size_t n = (size_t)SP_EVENT_BATCH + 5;
    int64_t *s = malloc(n * sizeof *s), *d = malloc(n * sizeof *d);
    assert_non_null(s);
    assert_non_null(d);
    for (size_t i = 0; i < n; i++) {
        s[i] = 1000 + 10 * (int64_t)i;
        d[i] = 5 + (int64_t)(i % 3);
    }
    fs_model_add_row(&m, 0, 0, s, d, n);
    fs_model_add_row(&m, 0, 1, s, d, 7);
    fs_model_add_row(&m, 1, 1, s + 3, d + 3, 11);
    free(s);
    free(d);
    const char *path = fs_path("batches.h5");
    sp_error err;
    if (sp_write_model(&m, path, NULL, &err)) fail_msg("%s", err.message);
    sp_model_clear(&m);
    sp_model streamed;
    read_streamed(path, &streamed);
    assert_int_equal(sp_event_batch_end(&streamed, 0), 1); /* the big row alone */
    assert_int_equal(sp_event_batch_end(&streamed, 1), 3); /* the two small ones together */
    sp_model_clear(&streamed);
    check_file(path);
}

static int64_t meta_count(const sp_model *m, const char *key) {
    const sp_meta_entry *e = sp_model_meta_find(m, key);
    return e && e->type == SP_META_INT ? e->i : 0;
}

/* A call outside the run is dropped and counted, as by the whole read. */
static void test_repair_reads_whole(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    sp_model_meta_int(&m, "start_time_ns", 900);
    sp_model_meta_int(&m, "finalize_time_ns", 9400);
    const char *path = fs_path("outside.h5");
    sp_error err;
    if (sp_write_model(&m, path, NULL, &err)) fail_msg("%s", err.message);
    sp_model_clear(&m);
    int64_t d[] = {100, 200, 300, 50, 60, 400, 0, 500, 999999999};
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, d, 9);
    sp_model whole, streamed;
    fs_read_ok(path, &whole);
    read_streamed(path, &streamed);
    assert_null(streamed.event_source);
    assert_int_equal(meta_count(&streamed, SP_CALLS_DROPPED_KEY), 1);
    assert_int_equal(streamed.num_events, whole.num_events);
    assert_same_slice(streamed.durations, whole.durations, whole.num_events);
    sp_model_clear(&streamed);
    sp_model_clear(&whole);
}

/* The basic file with one column replaced by values[0..9), read streamed:
 * it must come back read whole. */
static void read_edited(const char *name, const char *column, const int64_t *values,
                        sp_model *out) {
    const char *path = fs_path(name);
    fs_write_basic(path);
    fs_replace_ints(path, column, H5T_STD_I64LE, values, 9);
    read_streamed(path, out);
    assert_null(out->event_source);
}

/* Statistics that are not the row's calls are computed again (whole read). */
static void test_recomputed_stats_read_whole(void **state) {
    (void)state;
    int64_t d[] = {100, 200, 301, 50, 60, 400, 0, 500, 10};
    sp_model streamed;
    read_edited("stats.h5", "/events/durations", d, &streamed);
    assert_int_equal(meta_count(&streamed, SP_STATS_RECOMPUTED_KEY), 1);
    sp_model_clear(&streamed);
}

/* Thread ids: the thread lanes are run-wide facts, so such files are read whole. */
static void test_thread_ids_read_whole(void **state) {
    (void)state;
    int64_t t[] = {0, 0, 1, 0, 0, 0, 0, 0, 0};
    sp_model streamed;
    read_edited("threads.h5", "/events/thread_ids", t, &streamed);
    assert_non_null(streamed.thread_ids);
    assert_int_equal(streamed.thread_ids[2], 1);
    sp_model_clear(&streamed);
}

/* Damage gives the whole read's error, word for word. */
static void expect_same_error(const char *path) {
    sp_model m;
    sp_error whole, streamed;
    assert_int_not_equal(sp_read_model(path, &m, &whole), SP_OK);
    assert_int_not_equal(sp_read_model_streamed(path, &m, &streamed), SP_OK);
    assert_int_equal(streamed.status, whole.status);
    assert_string_equal(streamed.message, whole.message);
    assert_null(m.event_source);
}

static void test_damage_same_error(void **state) {
    (void)state;
    const char *path = fs_path("negative_delta.h5");
    fs_write_basic(path);
    int64_t s[] = {1000, -9000, 4000, 1100, 4000, 2000, 4000, 1000, 2100};
    fs_replace_ints(path, "/events/start_deltas", H5T_STD_I64LE, s, 9);
    expect_same_error(path);
    const char *path2 = fs_path("negative_duration.h5");
    fs_write_basic(path2);
    int64_t d[] = {100, 200, 300, 50, -60, 400, 0, 500, 10};
    fs_replace_ints(path2, "/events/durations", H5T_STD_I64LE, d, 9);
    expect_same_error(path2);
    const char *path3 = fs_path("short_durations.h5");
    fs_write_basic(path3);
    fs_replace_ints(path3, "/events/durations", H5T_STD_I64LE, d, 8);
    expect_same_error(path3);
    const char *path4 = fs_path("float_deltas.h5");
    fs_write_basic(path4);
    double f[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    fs_replace_doubles(path4, "/events/start_deltas", f, 9);
    expect_same_error(path4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_repair_reads_whole),
        cmocka_unit_test(test_recomputed_stats_read_whole),
        cmocka_unit_test(test_thread_ids_read_whole),
        cmocka_unit_test(test_damage_same_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
