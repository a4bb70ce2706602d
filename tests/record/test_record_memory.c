/*
 * Recording memory (issue 15, issue 10 item 2): sp_reserve really populates,
 * a failed reservation leaves nothing behind, 100,000 regions called once
 * stay under 64 MiB, the memory limit counts what it does not store without
 * slowing recording down; by-name calls with literals cached at the call site
 * stay correct when one site sees several names, and runtime names stay
 * exact whatever their length, address and later contents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "record_support.h"

static long resident_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

static void start(const rs_fixture *f, int journal) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.journal = journal ? SP_JOURNAL_ON : SP_JOURNAL_OFF;
    assert_int_equal(sp_setup(&opt), SP_OK);
}

static void finish(void) {
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
}

static int64_t calls_in_file(const rs_fixture *f, const char *name) {
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    int64_t n = rs_calls_of(&p, name);
    rs_profile_free(&p);
    return n;
}

/* sp_reserve(h, n): the resident set grows by the reserved size at once. */
static void reserve_populates(const rs_fixture *f, int journal) {
    start(f, journal);
    sp_region_t h = sp_region("reserved");
    const uint64_t calls = 4000000; /* 61 MiB */
    long before = resident_bytes();
    assert_int_equal(sp_reserve(h, calls), SP_OK);
    long grown = resident_bytes() - before;
    assert_true(grown >= (long)(calls * 16 * 95 / 100));
    for (uint64_t i = 0; i < calls; i++) {
        sp_begin(h);
        sp_end(h);
    }
    long after_calls = resident_bytes() - before;
    assert_true(after_calls < grown + (4l << 20)); /* the calls found their room populated */
    finish();
    assert_int_equal(calls_in_file(f, "reserved"), (int64_t)calls);
}

static void test_reserve_populates_in_memory(void **state) {
    reserve_populates(*state, 0);
}

static void test_reserve_populates_in_journal(void **state) {
    reserve_populates(*state, 1);
}

/* Impossible reservations fail and take nothing; recording goes on. */
static void test_failed_reservation_leaves_nothing(void **state) {
    rs_fixture *f = *state;
    setenv("SCOPE_PROFILER_MEMORY_LIMIT", "8M", 1);
    start(f, 0);
    unsetenv("SCOPE_PROFILER_MEMORY_LIMIT");
    sp_region_t h = sp_region("after_failure");
    long before = resident_bytes();
    assert_int_equal(sp_reserve(h, UINT64_MAX), SP_ERR_OUT_OF_MEMORY);
    assert_int_equal(sp_reserve(h, 1000000), SP_ERR_OUT_OF_MEMORY); /* 16 MB > the limit */
    assert_true(resident_bytes() - before < (1l << 20));
    assert_int_equal(sp_reserve(h, 1000), SP_OK);
    for (int i = 0; i < 1000; i++) {
        sp_begin(h);
        sp_end(h);
    }
    finish();
    assert_int_equal(calls_in_file(f, "after_failure"), 1000);
}

/* 100,000 distinct regions, one call each: at most 64 MiB. */
static void test_many_regions_bounded(void **state) {
    rs_fixture *f = *state;
    enum { REGIONS = 100000 };
    start(f, 1);
    long before = resident_bytes();
    char name[32];
    for (int i = 0; i < REGIONS; i++) {
        snprintf(name, sizeof name, "region %d", i);
        sp_region_t h = sp_region(name);
        sp_begin(h);
        sp_end(h);
    }
    long grown = resident_bytes() - before;
    print_message("100,000 regions called once: %.1f MiB\n", (double)grown / 1048576.0);
#if defined(__SANITIZE_ADDRESS__)
    assert_true(grown <= (128l << 20)); /* ASan's redzones around every allocation */
#else
    assert_true(grown <= (64l << 20));
#endif
    finish();
    assert_int_equal(calls_in_file(f, "region 0"), 1);
    assert_int_equal(calls_in_file(f, "region 99999"), 1);
}

static double loop_ns(sp_region_t h, long n) {
    int64_t t0 = rs_now_ns();
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
    return (double)(rs_now_ns() - t0) / (double)n;
}

/* Beyond the limit calls are counted, not stored, and stay cheap. */
static void test_memory_limit_counts_calls(void **state) {
    rs_fixture *f = *state;
    setenv("SCOPE_PROFILER_MEMORY_LIMIT", "1M", 1);
    start(f, 0);
    unsetenv("SCOPE_PROFILER_MEMORY_LIMIT");
    sp_region_t h = sp_region("limited");
    const long n = 400000;
    rs_capture_stderr_begin();
    double stored_ns = loop_ns(h, 20000); /* within the limit */
    for (long i = 20000; i < n - 100000; i++) {
        sp_begin(h);
        sp_end(h);
    }
    double discarded_ns = loop_ns(h, 100000); /* beyond it */
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "counted but not stored"));
    const char *line = strstr(err, "call(s) were counted but not stored");
    assert_non_null(line);
    while (line > err && line[-1] != ' ')
        line--;
    while (line > err && line[-1] == ' ')
        line--;
    while (line > err && line[-1] >= '0' && line[-1] <= '9')
        line--;
    long not_stored = atol(line);
    int64_t stored = calls_in_file(f, "limited");
    print_message("stored %lld, not stored %ld\n", (long long)stored, not_stored);
    assert_true(stored > 0 && stored < n);
    assert_int_equal(stored + not_stored, n);
    print_message("stored %.1f ns per pair, beyond the limit %.1f ns\n", stored_ns, discarded_ns);
    assert_true(discarded_ns < 10.0 * stored_ns + 50.0);
    free(err);
}

/* One by-name call site (an inline helper) used with two literals. */
static inline void begin_via(const char *name) {
    sp_begin_name(name);
}
static inline void end_via(const char *name) {
    sp_end_name(name);
}

static void test_by_name_sites_stay_correct(void **state) {
    rs_fixture *f = *state;
    start(f, 0);
    for (int i = 0; i < 10; i++) {
        begin_via("alpha");
        begin_via("beta");
        end_via("beta");
        end_via("alpha");
    }
    char buffer[16]; /* a buffer the program reuses for another name */
    strcpy(buffer, "gamma");
    sp_begin_name(buffer);
    sp_end_name(buffer);
    strcpy(buffer, "delta");
    sp_begin_name(buffer);
    sp_end_name(buffer);
    sp_begin_name("epsilon");
    sp_end_name("epsilon");
    finish();
    assert_int_equal(calls_in_file(f, "alpha"), 10);
    assert_int_equal(calls_in_file(f, "beta"), 10);
    assert_int_equal(calls_in_file(f, "gamma"), 1);
    assert_int_equal(calls_in_file(f, "delta"), 1);
    assert_int_equal(calls_in_file(f, "epsilon"), 1);
}

/* Runtime names (the per-thread cache, compared a word at a time): equal text
 * at different and unaligned addresses is one region, at every length around
 * the word boundaries; a buffer rewritten between calls records under its
 * new text, in either word; bytes past the terminator do not matter; a
 * buffer rewritten between begin and end ends the call of its new text. */
static void test_runtime_names_exact(void **state) {
    rs_fixture *f = *state;
    start(f, 0);
    static _Alignas(16) char a[64], b[64];
    static const char *const names[] = {"n6_abc",          "n7_abcd",          "n8_abcde",
                                        "n15_abcdefghijk", "n16_abcdefghijkl", "n17_abcdefghijklm"};
    const size_t offsets[] = {0, 1, 3, 8};
    for (size_t n = 0; n < sizeof names / sizeof *names; n++)
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++)
            for (int round = 0; round < 3; round++) {
                strcpy(a + offsets[o], names[n]);
                strcpy(b + 32 - offsets[o], names[n]);
                sp_begin_name(a + offsets[o]);
                sp_end_name(a + offsets[o]);
                sp_begin_name(b + 32 - offsets[o]);
                sp_end_name(b + 32 - offsets[o]);
            }
    /* the same buffer, another text: in the first word, then in the second */
    for (int i = 0; i < 5; i++) {
        strcpy(a, i % 2 ? "second_word_diff1" : "second_word_diff2");
        sp_begin_name(a);
        sp_end_name(a);
        strcpy(a, i % 2 ? "w1" : "w2");
        sp_begin_name(a);
        sp_end_name(a);
    }
    /* what follows the terminator changes: the same name */
    memcpy(a, "tail\0xyzwvutsrq", 16);
    sp_begin_name(a);
    sp_end_name(a);
    memcpy(a, "tail\0QRSTUVWXYZ", 16);
    sp_begin_name(a);
    sp_end_name(a);
    /* rewritten between begin and end */
    strcpy(a, "opened");
    sp_begin_name(a);
    strcpy(a, "renamed");
    rs_capture_stderr_begin();
    sp_end_name(a); /* "renamed" is not open: ignored, reported */
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "renamed"));
    free(err);
    strcpy(a, "opened");
    sp_end_name(a);
    finish();
    for (size_t n = 0; n < sizeof names / sizeof *names; n++)
        assert_int_equal(calls_in_file(f, names[n]), 4 * 3 * 2);
    assert_int_equal(calls_in_file(f, "second_word_diff1"), 2);
    assert_int_equal(calls_in_file(f, "second_word_diff2"), 3);
    assert_int_equal(calls_in_file(f, "w1"), 2);
    assert_int_equal(calls_in_file(f, "w2"), 3);
    assert_int_equal(calls_in_file(f, "tail"), 2);
    assert_int_equal(calls_in_file(f, "opened"), 1);
    assert_int_equal(calls_in_file(f, "renamed"), 0);
}

int main(void) {
    unsetenv("SCOPE_PROFILER_JOURNAL");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reserve_populates_in_memory, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_reserve_populates_in_journal, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_failed_reservation_leaves_nothing, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_many_regions_bounded, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_memory_limit_counts_calls, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_by_name_sites_stay_correct, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_runtime_names_exact, rs_setup_dir, rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
