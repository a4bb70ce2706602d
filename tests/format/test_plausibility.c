/* Plausibility checks on read (issue 22 item 7, src/format/plausibility.c):
 * one hand-made damaged file per rule, with the exact error or the exact
 * calls that are dropped and counted. */
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

static const char *write_model(sp_model *m, const char *name) {
    const char *path = fs_path(name);
    sp_error err;
    sp_status st = sp_write_model(m, path, NULL, &err);
    if (st) fail_msg("writing %s: %s", path, err.message);
    sp_model_clear(m);
    return path;
}

/* fs_basic_model() (rank 0: 1000..9300 ns, rank 1: 2000..7500 ns) with a run
 * from start_ns to end_ns; same_node: num_nodes 1 (rank 1 on rank 0's clock). */
static const char *basic_run(const char *name, int64_t start_ns, int64_t end_ns, int same_node) {
    sp_model m;
    fs_basic_model(&m);
    sp_model_meta_int(&m, "start_time_ns", start_ns);
    sp_model_meta_int(&m, "finalize_time_ns", end_ns);
    if (same_node) sp_model_meta_int(&m, "num_nodes", 1);
    return write_model(&m, name);
}

static int64_t meta_count(const sp_model *m, const char *key) {
    const sp_meta_entry *e = sp_model_meta_find(m, key);
    return e && e->type == SP_META_INT ? e->i : 0;
}

/* The basic model's durations in file order: rank 0 solve, io; rank 1 solve, setup. */
static void set_durations(const char *path, const int64_t *d) {
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, d, 9);
}

/* --- errors --------------------------------------------------------------------- */

static void test_finalize_before_start(void **state) {
    (void)state;
    const char *path = basic_run("backwards.h5", 20000, 10000, 0);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: /metadata finalize_time_ns (10000) is before start_time_ns "
                    "(20000)");
}

static void test_negative_start(void **state) {
    (void)state;
    const char *path = basic_run("negative.h5", -5, 10000, 0);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: /metadata start_time_ns is -5, before the clock began");
}

static void test_mpi_size_not_a_size(void **state) {
    (void)state;
    const char *path = basic_run("size0.h5", 0, 20000, 0);
    fs_set_attr_int(path, "/metadata", "mpi_size", 0);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: /metadata mpi_size is 0, not a number "
                    "of ranks");
}

/* The second rank of a file that says it had one rank. */
static void test_rank_beyond_mpi_size(void **state) {
    (void)state;
    const char *path = basic_run("size1.h5", 0, 20000, 0);
    fs_set_attr_int(path, "/metadata", "mpi_size", 1);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: /rank_region_index/ranks[2] is 1, beyond mpi_size 1");
}

/* Stored statistics whose total no count of calls between minimum and maximum gives. */
static void test_stats_contradict_their_count(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    m.rows[0].stats.total = 10 * m.rows[0].stats.maximum; /* 3 calls of at most 300 ns */
    const char *path = write_model(&m, "total.h5");
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: the statistics of row 0 of /rank_region_index: its total "
                    "does not lie between count x minimum and count x maximum");
}

/* --- schema 1 -------------------------------------------------------------------- */

static hid_t make_group(hid_t f, const char *path) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(f, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    assert_true(g >= 0);
    return g;
}

static void legacy_calls(hid_t f, const char *group) {
    hid_t g = make_group(f, group);
    int64_t starts[2] = {1000, 3000}, ends[2] = {2000, 4000};
    hsize_t n = 2;
    hid_t space = H5Screate_simple(1, &n, NULL);
    const char *names[2] = {"start_times", "end_times"};
    const int64_t *values[2] = {starts, ends};
    for (int k = 0; k < 2; k++) {
        hid_t ds =
            H5Dcreate2(g, names[k], H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values[k]) >= 0);
        H5Dclose(ds);
    }
    H5Sclose(space);
    H5Gclose(g);
}

/* rank0 with calls, plus the group `other` holding one region's calls. */
static const char *legacy_with(const char *name, const char *other) {
    const char *path = fs_path(name);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(make_group(f, "/metadata"));
    legacy_calls(f, "/rank0/regions/work");
    legacy_calls(f, other);
    H5Fclose(f);
    return path;
}

/* A rank group whose name lost a letter: its calls must not vanish silently. */
static void test_schema1_mangled_rank_name(void **state) {
    (void)state;
    const char *path = legacy_with("ranj1.h5", "/ranj1/regions/work");
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: group /ranj1 holds regions but is not named rank<N>: its "
                    "calls would be lost");
}

static void test_schema1_mangled_regions_group(void **state) {
    (void)state;
    const char *path = legacy_with("regionz.h5", "/rank1/regionz/work");
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: rank group /rank1 holds no regions group but other links: "
                    "its calls would be lost");
}

static void test_schema1_rank_beyond_mpi_size(void **state) {
    (void)state;
    const char *path = legacy_with("rank5.h5", "/rank5/regions/work");
    fs_set_attr_int(path, "/metadata", "mpi_size", 2);
    fs_expect_error(path, SP_ERR_DAMAGED, "damaged profile: group /rank5 lies beyond mpi_size 2");
}

/* The same file with the rank named properly reads, both ranks whole. */
static void test_schema1_good_file_reads(void **state) {
    (void)state;
    const char *path = legacy_with("rank1.h5", "/rank1/regions/work");
    fs_set_attr_int(path, "/metadata", "mpi_size", 2);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_rows, 2);
    assert_int_equal(m.rows[1].rank, 1);
    assert_int_equal(m.num_events, 4);
    sp_model_clear(&m);
}

/* --- calls dropped and counted ----------------------------------------------------- */

/* A 5 s call in a 10 us run: left out, the row's statistics follow the rest. */
static void test_call_longer_than_run_is_dropped(void **state) {
    (void)state;
    const char *path = basic_run("long.h5", 0, 10000, 1);
    int64_t d[9] = {100, 200, INT64_C(5000000000), 50, 60, 400, 0, 500, 10};
    set_durations(path, d);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_events, 8);
    assert_int_equal(m.rows[0].count, 2);
    assert_int_equal(m.rows[0].stats.total, 300);
    assert_int_equal(m.rows[0].stats.maximum, 200);
    assert_int_equal(m.rows[0].stats.last, 200);
    assert_int_equal(m.rows[0].exclusive_total, -1);
    assert_int_equal(m.rows[1].offset, 2);
    assert_int_equal(m.durations[2], 50); /* row 1 moved down */
    assert_int_equal(m.starts[2], 1100);
    assert_int_equal(m.rows[3].offset, 7);
    assert_int_equal(m.durations[7], 10);
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 1);
    assert_int_equal(meta_count(&m, SP_STATS_RECOMPUTED_KEY), 0);
    sp_model_clear(&m);
}

/* Calls of rank 0 that begin more than 1 ms before the run began. */
static void test_calls_before_the_run_are_dropped(void **state) {
    (void)state;
    const char *path = basic_run("early.h5", 1002000, 2000000, 1);
    sp_model m;
    fs_read_ok(path, &m);
    /* 1000 and 1100 (rank 0, solve and io) are over 1 ms early; 2000 (rank 1) is not */
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 2);
    assert_int_equal(m.rows[0].count, 2);
    assert_int_equal(m.starts[m.rows[0].offset], 5000);
    assert_int_equal(m.rows[1].count, 1);
    assert_int_equal(m.starts[m.rows[1].offset], 5100);
    assert_int_equal(m.rows[2].count, 3);
    sp_model_clear(&m);
}

/* A call that ends more than 1 ms after finalize. */
static void test_call_after_the_run_is_dropped(void **state) {
    (void)state;
    const char *path = basic_run("late.h5", 0, 10000, 1);
    int64_t d[9] = {100, 200, 300, 50, 60, 400, 0, 1200000, 10};
    set_durations(path, d); /* rank 1's 7000 ns call now ends at 1,207,000 */
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 1);
    assert_int_equal(m.rows[2].count, 2);
    assert_int_equal(m.rows[2].stats.total, 400);
    sp_model_clear(&m);
}

/* Rank 1 on another node and without a clock offset: only its length is
 * held against the run (twice the run, plus 1 ms). */
static void test_other_clock_only_length_counts(void **state) {
    (void)state;
    const char *path = basic_run("other.h5", 0, 10000, 0);
    int64_t d[9] = {100, 200, 300, 50, 60, 1010000, 0, 1030000, 10};
    set_durations(path, d); /* 1,010,000 fits in 2 x 10,000 + 1 ms; 1,030,000 does not */
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 1);
    assert_int_equal(m.rows[2].count, 2);
    assert_int_equal(m.durations[m.rows[2].offset], 1010000);
    sp_model_clear(&m);
}

/* A dropped call's per-call metadata entry goes with it. */
static void test_dropped_call_loses_its_metadata_entry(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    free(m.rows[0].event_metadata);
    m.rows[0].event_metadata = sp_strdup("[{\"i\":0},{\"i\":1},{\"i\":2}]");
    sp_model_meta_int(&m, "start_time_ns", 0);
    sp_model_meta_int(&m, "finalize_time_ns", 10000);
    m.durations[1] = INT64_C(9000000000);
    m.rows[0].stats.maximum = m.durations[1]; /* the file's statistics include it */
    m.rows[0].stats.total = m.durations[1] + 400;
    m.rows[0].stats.mean = (double)m.rows[0].stats.total / 3;
    const char *path = write_model(&m, "metadata.h5");
    fs_read_ok(path, &m);
    assert_string_equal(m.rows[0].event_metadata, "[{\"i\":0},{\"i\":2}]");
    assert_int_equal(m.rows[0].stats.total, 400);
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 1);
    sp_model_clear(&m);
}

/* outer > mid > inner by call ids; mid is dropped, inner hangs under outer. */
static void test_dropped_parent_hands_on_its_children(void **state) {
    (void)state;
    static const char *const names[] = {"outer", "mid", "inner"};
    sp_model m;
    fs_model_init(&m, names, 3);
    int64_t s0[] = {1000}, d0[] = {8000};
    int64_t s1[] = {2000}, d1[] = {INT64_C(7000000000)};
    int64_t s2[] = {3000}, d2[] = {1000};
    fs_model_add_row(&m, 0, 0, s0, d0, 1);
    fs_model_add_row(&m, 0, 1, s1, d1, 1);
    fs_model_add_row(&m, 0, 2, s2, d2, 1);
    sp_model_meta_int(&m, "start_time_ns", 0);
    sp_model_meta_int(&m, "finalize_time_ns", 10000);
    const char *path = write_model(&m, "parents.h5");
    int64_t ids[3] = {10, 11, 12}, parents[3] = {-1, 10, 11};
    fs_replace_ints(path, "/events/call_ids", H5T_STD_I64LE, ids, 3);
    fs_replace_ints(path, "/events/parent_ids", H5T_STD_I64LE, parents, 3);
    fs_read_ok(path, &m);
    assert_int_equal(m.num_events, 2);
    assert_int_equal(m.rows[1].count, 0);
    assert_int_equal(m.call_ids[1], 12);
    assert_int_equal(m.parent_ids[1], 10);
    sp_model_clear(&m);
}

/* Stored statistics of other calls than the row holds: computed again from
 * the calls (they are what was recorded), and counted. */
static void test_stats_of_other_calls_are_recomputed(void **state) {
    (void)state;
    const char *path = basic_run("stats.h5", 0, 10000, 1);
    int64_t d[9] = {100, 250, 300, 50, 60, 400, 0, 500, 10};
    set_durations(path, d); /* the file's statistics still say 200 */
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_events, 9);
    assert_int_equal(m.rows[0].stats.total, 650);
    assert_int_equal(m.rows[0].stats.first, 100);
    assert_true(m.rows[0].stats.mean > 216.66 && m.rows[0].stats.mean < 216.67);
    assert_int_equal(meta_count(&m, SP_STATS_RECOMPUTED_KEY), 1);
    assert_int_equal(meta_count(&m, SP_CALLS_DROPPED_KEY), 0);
    sp_model_clear(&m);
}

/* A plausible run reads unchanged, and says nothing was repaired. */
static void test_plausible_run_unchanged(void **state) {
    (void)state;
    const char *path = basic_run("fine.h5", 500, 9400, 1);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_events, 9);
    assert_null(sp_model_meta_find(&m, SP_CALLS_DROPPED_KEY));
    assert_null(sp_model_meta_find(&m, SP_STATS_RECOMPUTED_KEY));
    sp_model_clear(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finalize_before_start),
        cmocka_unit_test(test_negative_start),
        cmocka_unit_test(test_mpi_size_not_a_size),
        cmocka_unit_test(test_rank_beyond_mpi_size),
        cmocka_unit_test(test_stats_contradict_their_count),
        cmocka_unit_test(test_schema1_mangled_rank_name),
        cmocka_unit_test(test_schema1_mangled_regions_group),
        cmocka_unit_test(test_schema1_rank_beyond_mpi_size),
        cmocka_unit_test(test_schema1_good_file_reads),
        cmocka_unit_test(test_call_longer_than_run_is_dropped),
        cmocka_unit_test(test_calls_before_the_run_are_dropped),
        cmocka_unit_test(test_call_after_the_run_is_dropped),
        cmocka_unit_test(test_other_clock_only_length_counts),
        cmocka_unit_test(test_dropped_call_loses_its_metadata_entry),
        cmocka_unit_test(test_dropped_parent_hands_on_its_children),
        cmocka_unit_test(test_stats_of_other_calls_are_recomputed),
        cmocka_unit_test(test_plausible_run_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
