/*
 * Deep recursion and deep nesting (docs/robustness.md, "Deep recursion"): a
 * repeated chain of regions folds into one set of rows, and the table that
 * sp_finalize() prints stays bounded whatever was recorded.
 */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../analysis/model_builder.h"
#include "../record/record_support.h"
#include "analysis/analysis.h"

#define DEPTH 10000 /* calls on the chain a > b > a > ... */

/* Call k of the chain (region k % 2) starts at 10 k and ends at 10^6 - 10 k. */
static sp_results *mutual_chain(int depth) {
    static const char *const names[] = {"a", "b"};
    mb_call *calls = malloc((size_t)depth * sizeof *calls);
    assert_non_null(calls);
    /* rows hold their calls in start order: all a's, then all b's */
    size_t n = 0;
    for (int region = 0; region < 2; region++)
        for (int k = region; k < depth; k += 2)
            calls[n++] =
                (mb_call){region, 0, 10 * (int64_t)k, 1000000 - 10 * (int64_t)k, MB_NO_THREAD};
    mb_spec spec = {.regions = names, .num_regions = 2, .calls = calls, .num_calls = n};
    sp_results *r = mb_results(&spec);
    free(calls);
    return r;
}

/* a > b > a > b folds onto a > b; a > b > a stays its own path (as in Python). */
static void mutual_recursion_folds(void **state) {
    (void)state;
    sp_results *r = mutual_chain(DEPTH);
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    static const char *const paths[] = {"a", "a > b", "a > b > a"};
    static const int depth[] = {0, 1, 2};
    static const int recursive[] = {0, 1, 1};
    static const uint64_t calls[] = {1, DEPTH / 2, DEPTH / 2 - 1};
    assert_int_equal(rows.count, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_string_equal(rows.rows[k].call_path, paths[k]);
        assert_int_equal(rows.rows[k].depth, depth[k]);
        assert_int_equal(rows.rows[k].recursive, recursive[k]);
        assert_int_equal(rows.rows[k].calls, calls[k]);
    }
    /* "a" holds one call of 10^6 ns; its own time is its first 10 ns + last 10 ns */
    assert_true(rows.rows[0].total == 1e-3);
    sp_table_rows_free(&rows);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    sp_print_options po = {.suppress_notes = 1};
    assert_int_equal(sp_print_summary(r, out, &po, &err), SP_OK);
    fclose(out);
    /* b: 5000 calls of 10^6 - 20 k ns (k odd) = 4.5 s, each one 20 ns longer than
     * its a but the last (800020 ns); the inner a's: the 4999 even k from 2 */
    static const char expected[] = "  ╭─────────────────────────────────╮\n"
                                   "  │ region            total [s]     │\n"
                                   "  ├─────────────────────────────────┤\n"
                                   "  │ a                 0.001000      │\n"
                                   "  │ └─ (own)             0.000000   │\n"
                                   "  │ └─ b ↻ (5kx)         4.500000   │\n"
                                   "  │ │ └─ (own)             0.000900 │\n"
                                   "  │ │ └─ a ↻ (5kx)         4.499100 │\n"
                                   "  ╰─────────────────────────────────╯\n"
                                   "\n";
    assert_string_equal(text, expected);
    free(text);
    sp_results_free(r);
}

static void recurse(sp_region_t a, sp_region_t b, int depth) {
    if (depth == 0) return;
    sp_begin(a);
    recurse(b, a, depth - 1);
    sp_end(a);
}

static char *finalize_text(const char *path) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    sp_finalize_options fo = {.stream = out};
    assert_int_equal(sp_finalize(&fo), SP_OK);
    fclose(out);
    (void)path;
    return text;
}

/* What finalize prints for a 10,000-deep a > b chain: a few rows, not depth². */
static void finalize_prints_folded_rows(void **state) {
    rs_fixture *fx = *state;
    sp_options o = {.file_path = fx->path};
    assert_int_equal(sp_setup(&o), SP_OK);
    recurse(sp_region("a"), sp_region("b"), DEPTH);
    char *text = finalize_text(fx->path);
    assert_true(strlen(text) < 4096);
    assert_non_null(strstr(text, "│ └─ a   "));
    assert_non_null(strstr(text, "│ │ └─ b ↻ (5000x)  "));
    assert_non_null(strstr(text, "│ │ │ └─ a ↻ (4999x)  "));
    assert_int_equal(rs_count(text, "↻ ("), 2);
    free(text);
}

/* 1,000 distinct regions nested in each other: finalize shows the rows up to
 * depth 23 and says how many it left out; the file keeps everything. */
static void finalize_output_is_bounded(void **state) {
    rs_fixture *fx = *state;
    enum { NESTED = 1000 };
    sp_options o = {.file_path = fx->path};
    assert_int_equal(sp_setup(&o), SP_OK);
    static sp_region_t h[NESTED];
    for (int i = 0; i < NESTED; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        h[i] = sp_region(name);
    }
    for (int i = 0; i < NESTED; i++)
        sp_begin(h[i]);
    for (int i = NESTED; i-- > 0;)
        sp_end(h[i]);
    char *text = finalize_text(fx->path);
    assert_true(strlen(text) < 32 * 1024);
    /* 1001 nested paths (the session, r0 .. r999), 256 rows under the table's
     * depth cap (the session, r0 .. r253, "…(746 levels)"): the session and
     * r0 .. r22 (depth 23) are shown, each with its (own) row */
    char note[320];
    snprintf(note, sizeof note,
             "  (232 more row(s) not shown; scope-profiler inspect %s shows them all)\n", fx->path);
    char *at = strstr(text, note);
    assert_non_null(at);
    *at = '\0';
    assert_int_equal(rs_count(text, "\n  │ "), 49); /* the header and 48 lines */
    assert_non_null(strstr(text, "└─ r22 "));
    assert_null(strstr(text, "r23"));
    size_t width = 0, widest = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n')
            width = 0;
        else if ((*p & 0xC0) != 0x80 && ++width > widest)
            widest = width;
    }
    assert_true(widest < 240);
    free(text);
    sp_error err;
    sp_results *r = sp_read(fx->path, &err);
    assert_non_null(r);
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 256); /* the default depth cap */
    assert_string_equal(rows.rows[255].name, "\xe2\x80\xa6(746 levels)");
    assert_int_equal(rows.rows[255].calls, 746);
    sp_table_rows_free(&rows);
    /* the file keeps every call: without the cap, every path */
    assert_int_equal(sp_table_rows_build_capped(r, NULL, NULL, NULL, 2000, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 1001);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mutual_recursion_folds),
        cmocka_unit_test_setup_teardown(finalize_prints_folded_rows, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(finalize_output_is_bounded, rs_setup_dir, rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
