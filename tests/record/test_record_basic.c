/* Recording: round trip of known busy waits, layout and types, nesting,
 * recursion, scoped macros, session life cycle, names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "../support/h5_inspect.h"
#include "record_support.h"

#define MS 1000000LL

/* A busy wait of `expected` ns lasts at least that long; the upper bound is
 * generous because sanitizer builds and parallel tests can preempt us. */
static int plausible(int64_t d, int64_t expected) {
    return d >= expected && d < 4 * expected + 60 * MS; /* generous: CI may be loaded */
}

static const sp_finalize_options quiet = {.quiet = 1};

typedef rs_fixture fixture;

static void start(const fixture *f) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.label = "unit test";
    assert_int_equal(sp_setup(&opt), SP_OK);
}

/* outer (25 ms) holds 3 x inner (5 ms); a 2 ms region after it. */
static void test_busy_wait_round_trip(void **state) {
    fixture *f = *state;
    start(f);
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    int64_t t0 = rs_now_ns();
    sp_begin(outer);
    for (int i = 0; i < 3; i++) {
        sp_begin(inner);
        rs_busy_wait_ns(5 * MS);
        sp_end(inner);
    }
    rs_busy_wait_ns(10 * MS);
    sp_end(outer);
    SP_REGION("after") {
        rs_busy_wait_ns(2 * MS);
    }
    int64_t t1 = rs_now_ns();
    assert_int_equal(sp_finalize(&quiet), SP_OK);

    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 4);
    assert_string_equal(p.names[0], "scope_profiler.session");
    assert_string_equal(p.names[1], "outer");
    assert_string_equal(p.names[2], "inner");
    assert_string_equal(p.names[3], "after");
    assert_int_equal(rs_calls_of(&p, "scope_profiler.session"), 1);
    assert_int_equal(rs_calls_of(&p, "outer"), 1);
    assert_int_equal(rs_calls_of(&p, "inner"), 3);
    assert_int_equal(rs_calls_of(&p, "after"), 1);
    assert_int_equal(p.num_events, 6);
    long o = rs_row_of(&p, "outer"), in = rs_row_of(&p, "inner"), a = rs_row_of(&p, "after");
    long root = rs_row_of(&p, "scope_profiler.session");
    int64_t outer_d = p.durations[p.offsets[o]];
    assert_true(plausible(outer_d, 25 * MS));
    for (int i = 0; i < 3; i++) {
        int64_t d = p.durations[p.offsets[in] + i];
        assert_true(plausible(d, 5 * MS));
        /* each inner call lies inside the outer call */
        int64_t s = p.starts[p.offsets[in] + i];
        assert_true(s >= p.starts[p.offsets[o]]);
        assert_true(s + d <= p.starts[p.offsets[o]] + outer_d);
    }
    int64_t after_d = p.durations[p.offsets[a]];
    assert_true(plausible(after_d, 2 * MS));
    /* absolute CLOCK_MONOTONIC timestamps: inside the test's own readings */
    assert_true(p.starts[p.offsets[o]] >= t0 - 2000);
    assert_true(p.starts[p.offsets[a]] + after_d <= t1 + 2000);
    /* the session root spans setup to finalize, so it holds every call */
    int64_t root_start = p.starts[p.offsets[root]];
    assert_true(root_start <= p.starts[p.offsets[o]] && root_start <= t0 + 2000);
    assert_true(root_start + p.durations[p.offsets[root]] >= t1 - 2000);
    assert_true(root_start + p.durations[p.offsets[root]] >= p.starts[p.offsets[a]] + after_d);
    assert_null(p.thread_ids); /* one thread: no thread column */
    rs_profile_free(&p);
}

static void expect_type(hid_t file, const char *path, H5T_class_t cls, size_t size, int sign) {
    h5i_type t;
    assert_int_equal(h5i_dataset_type(file, path, &t), 0);
    assert_int_equal(t.cls, cls);
    if (cls == H5T_STRING) {
        assert_true(t.is_vlen_string);
        assert_int_equal(t.cset, H5T_CSET_UTF8);
        return;
    }
    assert_int_equal(t.size, size);
    assert_int_equal(t.order, H5T_ORDER_LE);
    if (cls == H5T_INTEGER) assert_int_equal(t.is_signed, sign);
}

static void test_layout_and_types(void **state) {
    fixture *f = *state;
    start(f);
    SP_REGION("a") {
        SP_REGION("b") {}
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    hid_t file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    int64_t schema = 0;
    assert_int_equal(h5i_attr_int64(file, "/", "scope_profiler_schema", &schema), 0);
    assert_int_equal(schema, 3);
    char *layout = h5i_attr_string(file, "/", "storage_layout");
    assert_string_equal(layout, "columnar");
    free(layout);
    expect_type(file, "/region_table/names", H5T_STRING, 0, 0);
    expect_type(file, "/rank_region_index/region_ids", H5T_INTEGER, 4, 0);
    expect_type(file, "/rank_region_index/ranks", H5T_INTEGER, 4, 0);
    expect_type(file, "/rank_region_index/event_offsets", H5T_INTEGER, 8, 0);
    expect_type(file, "/rank_region_index/event_counts", H5T_INTEGER, 8, 0);
    expect_type(file, "/rank_region_index/source_lines", H5T_INTEGER, 8, 1);
    expect_type(file, "/rank_region_index/exclusive_totals", H5T_INTEGER, 8, 1);
    expect_type(file, "/rank_region_index/source_files", H5T_STRING, 0, 0);
    expect_type(file, "/rank_region_index/source_texts", H5T_STRING, 0, 0);
    expect_type(file, "/rank_region_index/tags", H5T_STRING, 0, 0);
    expect_type(file, "/rank_region_index/event_metadata", H5T_STRING, 0, 0);
    expect_type(file, "/events/start_deltas", H5T_INTEGER, 8, 1);
    expect_type(file, "/events/durations", H5T_INTEGER, 8, 1);
    h5i_type t;
    assert_int_equal(h5i_dataset_type(file, "/rank_region_index/summary_statistics", &t), 0);
    assert_int_equal(t.cls, H5T_COMPOUND);
    assert_int_equal(t.size, 88);
    /* absent optional columns (FORMAT.md: never write call ids full of -1) */
    assert_false(h5i_exists(file, "/events/call_ids"));
    assert_false(h5i_exists(file, "/events/parent_ids"));
    assert_false(h5i_exists(file, "/events/thread_ids"));
    assert_false(h5i_exists(file, "/thread_table"));
    size_t n;
    char **tags = h5i_read_strings(file, "/rank_region_index/tags", &n);
    assert_int_equal(n, 3); /* the session root, a, b */
    assert_string_equal(tags[0], "[]");
    h5i_free_strings(tags, n);
    int64_t *excl = h5i_read_int64(file, "/rank_region_index/exclusive_totals", &n);
    assert_int_equal(excl[0], -1);
    free(excl);
    /* minimal metadata: the documented keys, nothing personal */
    static const char *const present[] = {"timestamp",
                                          "platform",
                                          "chip_information",
                                          "scope_profiler_version",
                                          "omp_num_threads",
                                          "mpi_size",
                                          "num_nodes",
                                          "total_cores",
                                          "start_time_ns",
                                          "finalize_time_ns",
                                          "label",
                                          "source_language",
                                          "compiler"};
    for (size_t i = 0; i < sizeof present / sizeof *present; i++)
        assert_true(h5i_attr_exists(file, "/metadata", present[i]));
    static const char *const absent[] = {"user", "hostname", "uname", "working_directory",
                                         "PATH", "modules"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        assert_false(h5i_attr_exists(file, "/metadata", absent[i]));
    char *ts = h5i_attr_string(file, "/metadata", "timestamp");
    assert_non_null(strstr(ts, "+00:00"));
    assert_int_equal(strlen(ts), strlen("2026-11-29T16:30:09.690934+00:00"));
    free(ts);
    char *lang = h5i_attr_string(file, "/metadata", "source_language");
    assert_string_equal(lang, "c");
    free(lang);
    H5Fclose(file);
}

/* Offsets are the running sum of counts; deltas decode to the recorded starts. */
static void test_index_invariants(void **state) {
    fixture *f = *state;
    start(f);
    sp_region_t r[4] = {sp_region("r0"), sp_region("r1"), sp_region("r2"), sp_region("r3")};
    for (int i = 0; i < 100; i++) {
        sp_begin(r[i % 4]);
        sp_end(r[i % 4]);
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    int64_t offset = 0;
    for (size_t i = 0; i < p.num_rows; i++) {
        assert_int_equal(p.offsets[i], offset);
        assert_int_equal(p.counts[i], i == 0 ? 1 : 25); /* row 0: the session root */
        assert_int_equal(p.ranks[i], 0);
        for (int64_t k = 1; k < p.counts[i]; k++)
            assert_true(p.starts[offset + k] > p.starts[offset + k - 1]);
        offset += p.counts[i];
    }
    assert_int_equal(offset, (int64_t)p.num_events);
    rs_profile_free(&p);
}

static int depth_left;
static void recurse(void) {
    SP_PROFILE("recursive");
    if (--depth_left > 0) recurse();
}

static void test_recursion_10000_levels(void **state) {
    fixture *f = *state;
    start(f);
    depth_left = 10000;
    recurse();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "recursive"), 10000);
    /* call k+1 starts inside call k and ends before it */
    for (size_t k = 1; k < 10000; k++) {
        assert_true(p.starts[k] >= p.starts[k - 1]);
        assert_true(p.starts[k] + p.durations[k] <= p.starts[k - 1] + p.durations[k - 1]);
    }
    rs_profile_free(&p);
}

static int leave_by_return(void) {
    SP_REGION("by_return") {
        return 7;
    }
    return 0;
}

static int leave_by_goto(void) {
    int n = 0;
    SP_REGION("by_goto") {
        n++;
        goto out;
    }
    n = 100;
out:
    return n;
}

static void test_scoped_macros_always_end(void **state) {
    fixture *f = *state;
    start(f);
    int loops = 0;
    for (int i = 0; i < 5; i++) {
        SP_REGION("by_break") {
            if (i >= 0) break; /* leaves the region block, not the for loop */
            loops += 100;
        }
        loops++;
    }
    assert_int_equal(loops, 5);
    for (int i = 0; i < 3; i++)
        assert_int_equal(leave_by_return(), 7);
    for (int i = 0; i < 2; i++)
        assert_int_equal(leave_by_goto(), 1);
    {
        SP_SCOPE("scope");
        SP_REGION("inside_scope") {}
    }
    char *err;
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    err = rs_capture_stderr_end();
    assert_string_equal(err, ""); /* nothing open, nothing mismatched */
    free(err);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "by_break"), 5);
    assert_int_equal(rs_calls_of(&p, "by_return"), 3);
    assert_int_equal(rs_calls_of(&p, "by_goto"), 2);
    assert_int_equal(rs_calls_of(&p, "scope"), 1);
    long s = rs_row_of(&p, "scope"), in = rs_row_of(&p, "inside_scope");
    assert_true(p.starts[p.offsets[in]] >= p.starts[p.offsets[s]]);
    rs_profile_free(&p);
}

static int profiled_line;
static void profiled_function(void) {
    /* the line number must be this statement's */
    // clang-format off
    SP_PROFILE_FUNCTION(); profiled_line = __LINE__;
    // clang-format on
}

static void test_profile_function_name_and_location(void **state) {
    fixture *f = *state;
    start(f);
    profiled_function();
    profiled_function();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "profiled_function"), 2);
    long r = rs_row_of(&p, "profiled_function");
    assert_non_null(strstr(p.source_files[r], "test_record_basic.c"));
    assert_int_equal(p.source_lines[r], profiled_line); /* the SP_PROFILE_FUNCTION() line */
    rs_profile_free(&p);
}

static void test_same_name_is_one_region(void **state) {
    fixture *f = *state;
    start(f);
    SP_REGION("shared") {}
    SP_REGION("shared") {}
    sp_region_t h = sp_region("shared");
    sp_begin(h);
    sp_end(h);
    sp_begin_name("shared");
    sp_end_name("shared");
    assert_int_equal(h, sp_region("shared"));
    assert_string_equal(sp_region_name(h), "shared");
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 2); /* the session root and "shared" */
    assert_int_equal(rs_calls_of(&p, "shared"), 4);
    rs_profile_free(&p);
}

static void test_special_names_stored_unchanged(void **state) {
    fixture *f = *state;
    static const char *const names[] = {"io/write \"x\"",
                                        "with space",
                                        "line\nbreak",
                                        "naïve ∑ région",
                                        "quote's",
                                        "back\\slash",
                                        ""};
    start(f);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        sp_region_t h = sp_region(names[i]);
        sp_begin(h);
        sp_end(h);
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 1 + sizeof names / sizeof *names);
    assert_string_equal(p.names[0], "scope_profiler.session");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        assert_string_equal(p.names[i + 1], names[i]);
    rs_profile_free(&p);
}

/* A user's region named like the session root stays apart from it (issue 22):
 * the root keeps its one call, the user's calls go to their own region. */
static void test_session_root_name_is_reserved(void **state) {
    fixture *f = *state;
    start(f);
    sp_region_t h = sp_region("scope_profiler.session");
    sp_begin(h);
    sp_end(h);
    sp_begin_name("scope_profiler.session");
    sp_end_name("scope_profiler.session");
    SP_REGION("scope_profiler.session") {}
    assert_string_equal(sp_region_name(h), "scope_profiler.session (user region)");
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 2);
    assert_string_equal(p.names[0], "scope_profiler.session");
    assert_string_equal(p.names[1], "scope_profiler.session (user region)");
    assert_int_equal(rs_calls_of(&p, "scope_profiler.session"), 1);
    assert_int_equal(rs_calls_of(&p, "scope_profiler.session (user region)"), 3);
    rs_profile_free(&p);
}

static void test_by_name_with_reused_buffer(void **state) {
    fixture *f = *state;
    start(f);
    char buf[32];
    for (int i = 0; i < 6; i++) {
        snprintf(buf, sizeof buf, "dynamic_%d", i % 3); /* same pointer, changing text */
        sp_begin_name(buf);
        sp_end_name(buf);
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 4); /* the session root and three names */
    assert_int_equal(rs_calls_of(&p, "dynamic_0"), 2);
    assert_int_equal(rs_calls_of(&p, "dynamic_1"), 2);
    assert_int_equal(rs_calls_of(&p, "dynamic_2"), 2);
    rs_profile_free(&p);
}

static void test_life_cycle(void **state) {
    fixture *f = *state;
    sp_region_t h = sp_region("cycle");
    /* before setup: nothing recorded, no error */
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_ERR_NOT_ACTIVE);
    assert_false(sp_is_active());
    start(f);
    assert_true(sp_is_active());
    sp_options again = SP_OPTIONS_INIT;
    assert_int_equal(sp_setup(&again), SP_ERR_ALREADY_ACTIVE);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_false(sp_is_active());
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "cycle"), 1);
    rs_profile_free(&p);

    /* after finalize: calls are no-ops; a second finalize writes nothing */
    sp_begin(h);
    sp_end(h);
    assert_int_equal(unlink(f->path), 0);
    assert_int_equal(sp_finalize(&quiet), SP_ERR_NOT_ACTIVE);
    assert_int_equal(access(f->path, F_OK), -1);

    /* a new session starts empty */
    start(f);
    sp_begin(h);
    sp_end(h);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "cycle"), 2);
    rs_profile_free(&p);
}

static void test_invalid_handle_is_ignored(void **state) {
    fixture *f = *state;
    start(f);
    sp_begin(SP_REGION_NONE);
    sp_end(SP_REGION_NONE);
    sp_begin((sp_region_t)999999);
    sp_end((sp_region_t)999999);
    SP_REGION("valid") {}
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_regions, 2); /* the session root and "valid" */
    assert_int_equal(rs_calls_of(&p, "valid"), 1);
    rs_profile_free(&p);
}

static void test_status_strings(void **state) {
    (void)state;
    for (int s = 0; s < SP_STATUS_COUNT_; s++) {
        const char *text = sp_status_string((sp_status)s);
        assert_non_null(text);
        assert_true(strlen(text) > 3);
        for (int t = 0; t < s; t++)
            assert_string_not_equal(text, sp_status_string((sp_status)t));
    }
    assert_string_equal(sp_status_string((sp_status)-1), "unknown status");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_busy_wait_round_trip, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_layout_and_types, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_index_invariants, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_recursion_10000_levels, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_scoped_macros_always_end, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_profile_function_name_and_location, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_same_name_is_one_region, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_special_names_stored_unchanged, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_by_name_with_reused_buffer, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_session_root_name_is_reserved, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_life_cycle, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_invalid_handle_is_ignored, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test(test_status_strings),
    };
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
