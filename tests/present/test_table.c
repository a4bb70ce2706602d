/* The summary table from hand-made rows: layout, every column, the (own)
 * rows, tree prefixes, counts, percentages, ASCII mode, the notes box, the
 * empty table and the column errors (python_semantics.md §5.4-5.7). */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/duration_text.h"
#include "present/table.h"
#include "present_test_util.h"
#include "table_cases.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static sp_table_rows make_rows(const sp_table_row *rows, size_t n) {
    sp_table_rows r = {n, (sp_table_row *)rows, 0, 0.0, 0};
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].name, "scope_profiler.session")) {
            r.has_session_total = 1;
            r.session_total = rows[i].total;
            break;
        }
    return r;
}

static char *format(const sp_table_rows *rows, const sp_table_format *fmt) {
    sp_textbuf out = SP_TEXTBUF_INIT;
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_table_format_text(&out, rows, fmt, &err), SP_OK);
    return sp_textbuf_take(&out);
}

static void check_against(const char *text, const char *dir, const char *name) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *want = slurp(path);
    assert_non_null(want);
    assert_string_equal(text, want);
    free(want);
}

static void expect(const sp_table_row *rows, size_t n, const sp_table_format *fmt,
                   const char *expected_file) {
    sp_table_rows r = make_rows(rows, n);
    char *text = format(&r, fmt);
    check_against(text, SP_TEST_SOURCE_DIR "/expected", expected_file);
    free(text);
}

static sp_table_column cols(const char *const *names, size_t n, sp_table_column *out) {
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_table_columns_parse(names, n, out, &err), SP_OK);
    return out[0];
}

/* --- the fixtures' default tables ----------------------------------------- */

static void test_default_columns_match_fixtures(void **state) {
    (void)state;
    sp_table_format fmt = {NULL, 0, 0, 0, 1, "ignored title", "py_tutorial2.h5", 0, 0, 0, 0};
    sp_table_rows r = make_rows(tutorial_rows, N(tutorial_rows));
    char *text = format(&r, &fmt);
    check_against(text, SP_FIXTURES_DIR, "py_tutorial2.table.txt");
    check_against(text, SP_TEST_SOURCE_DIR "/expected", "tutorial_default.txt");
    free(text);
    r = make_rows(multirank_rows, N(multirank_rows));
    text = format(&r, &fmt);
    check_against(text, SP_FIXTURES_DIR, "multirank_schema3.table.txt");
    free(text);
    r = make_rows(cschema2_rows, N(cschema2_rows));
    text = format(&r, &fmt);
    check_against(text, SP_FIXTURES_DIR, "c_schema2.table.txt");
    free(text);
}

/* --- columns ---------------------------------------------------------------- */

static void test_statistics_columns(void **state) {
    (void)state;
    const char *names[] = {"region", "ranks", "calls", "total", "avg", "min", "p95", "imbalance"};
    sp_table_column c[N(names)];
    cols(names, N(names), c);
    sp_table_format fmt = {c, N(c), 0, 0, 1, NULL, NULL, 0, 0, 0, 0};
    expect(tutorial_rows, N(tutorial_rows), &fmt, "tutorial_stats.txt");
}

static void test_parent_percent_column(void **state) {
    (void)state;
    const char *names[] = {"region", "calls", "total", "parent_percent", "avg", "imbalance"};
    sp_table_column c[N(names)];
    cols(names, N(names), c);
    sp_table_format fmt = {c, N(c), 0, 0, 1, NULL, NULL, 0, 0, 0, 0};
    expect(multirank_rows, N(multirank_rows), &fmt, "multirank_parent.txt");
}

static void test_every_column(void **state) {
    (void)state;
    sp_table_column c[SP_COL_IMBALANCE + 1]; /* Python's columns */
    for (int i = 0; i <= SP_COL_IMBALANCE; i++)
        c[i] = (sp_table_column)i;
    sp_table_format fmt = {c, N(c), 0, 0, 1, NULL, NULL, 0, 0, 0, 0};
    expect(multirank_rows, N(multirank_rows), &fmt, "multirank_all.txt");
    expect(cschema2_rows, N(cschema2_rows), &fmt, "cschema2_all.txt");
}

static void test_name_alias_and_headers(void **state) {
    (void)state;
    const char *names[] = {"name", "region", "parent_percent"};
    sp_table_column c[3];
    cols(names, 3, c);
    assert_int_equal(c[0], SP_COL_REGION);
    assert_int_equal(c[1], SP_COL_REGION);
    assert_int_equal(c[2], SP_COL_PARENT_PERCENT);
    assert_string_equal(sp_table_column_header(SP_COL_CALLS), "n");
    assert_string_equal(sp_table_column_header(SP_COL_AVG), "avg/call [s]");
    assert_string_equal(sp_table_column_header(SP_COL_PERCENT), "% session");
    assert_string_equal(sp_table_column_key(SP_COL_PARENT_PERCENT), "parent_percent");
}

/* The analysis layer's list of column keys (for help texts) is ours, in order. */
static void test_column_keys_match_analysis_list(void **state) {
    (void)state;
    int c = 0;
    for (; sp_table_columns[c]; c++) {
        assert_true(c < SP_COL_COUNT_);
        assert_string_equal(sp_table_columns[c], sp_table_column_key((sp_table_column)c));
    }
    assert_int_equal(c, SP_COL_COUNT_);
}

static void test_unknown_columns(void **state) {
    (void)state;
    const char *names[] = {"region", "bogus", "it's", "total", "p90"};
    sp_table_column c[N(names)];
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_table_columns_parse(names, N(names), c, &err), SP_ERR_BAD_OPTION);
    assert_int_equal(err.status, SP_ERR_BAD_OPTION);
    assert_string_equal(err.message,
                        "Unknown region summary column(s): ['bogus', \"it's\", 'p90']. Choices: "
                        "region, ranks, calls, total, percent, parent_percent, avg, min, max, "
                        "first, last, std, p50, p95, p99, imbalance, slowest, load_balance, "
                        "threads, thread_imbalance, slowest_thread");
}

static void test_empty_column_list(void **state) {
    (void)state;
    sp_table_column c[1];
    sp_error err = {SP_OK, ""};
    const char *none[] = {NULL};
    assert_int_equal(sp_table_columns_parse(none, 0, c, &err), SP_ERR_BAD_OPTION);
    assert_string_equal(err.message, "At least one region summary column must be selected.");
}

/* --- percentages, (own) rows, notes ----------------------------------------- */

static const sp_table_row session_rows[] = {
    {.name = "scope_profiler.session",
     .depth = 0,
     .has_children = 1,
     .num_ranks = 2,
     .calls = 1,
     .has_timing = 1,
     .total = 2.0,
     .avg = 2.0,
     .has_exclusive = 1,
     .exclusive = 0.5,
     .coverage = 2.0,
     .has_imbalance = 1},
    {.name = "work",
     .depth = 1,
     .num_ranks = 2,
     .calls = 4,
     .has_timing = 1,
     .total = 1.5,
     .avg = 0.375,
     .has_exclusive = 1,
     .exclusive = 1.25,
     .coverage = 1.5,
     .has_parent_coverage = 1,
     .parent_coverage = 2.0,
     .has_imbalance = 1},
    {.name = "again",
     .depth = 1,
     .recursive = 1,
     .num_ranks = 1,
     .calls = 1200,
     .has_timing = 1,
     .total = 0.25,
     .has_exclusive = 1,
     .exclusive = 0.25,
     .coverage = 0.125,
     .has_parent_coverage = 1,
     .parent_coverage = 2.0,
     .has_imbalance = 1},
    {.name = "idle",
     .depth = 0,
     .num_ranks = 0,
     .calls = 0,
     .has_timing = 0,
     .total = NAN,
     .coverage = 0.0,
     .start = INFINITY},
};

static void test_session_percentages_and_notes(void **state) {
    (void)state;
    sp_table_format fmt = {NULL, 0, 0, 0, 0, "run - s.h5 (2 ranks)", "dir with space/it's.h5", 0, 0, 0, 0};
    expect(session_rows, N(session_rows), &fmt, "session_coverage.txt");
    sp_table_format excl = {NULL, 0, 1, 0, 0, "run - s.h5 (2 ranks)", NULL, 0, 0, 0, 0};
    expect(session_rows, N(session_rows), &excl, "session_exclusive.txt");
}

static void test_notes_with_hints(void **state) {
    (void)state;
    char cwd[PATH_MAX], path[PATH_MAX + 32];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(path, sizeof path, "%s/./sub/../py_tutorial2.h5", cwd); /* relpath: py_tutorial2.h5 */
    sp_table_format fmt = {NULL, 0, 0, 0, 0, "tutorial 2 - py_tutorial2.h5 (1 rank)", path, 0, 0, 0, 0};
    expect(tutorial_rows, N(tutorial_rows), &fmt, "tutorial_notes.txt");
    sp_table_format fmt2 = {NULL, 0, 0, 0, 0, "upstream_c - c_schema2.h5 (1 rank)", "c_schema2.h5", 0, 0, 0, 0};
    expect(cschema2_rows, N(cschema2_rows), &fmt2, "cschema2_notes.txt");
}

static void test_ascii(void **state) {
    (void)state;
    sp_table_format fmt = {NULL, 0, 0, 1, 0, "upstream_c - c_schema2.h5 (1 rank)", "c_schema2.h5", 0, 0, 0, 0};
    expect(cschema2_rows, N(cschema2_rows), &fmt, "cschema2_ascii.txt");
    const char *names[] = {"name", "calls", "percent", "total"};
    sp_table_column c[N(names)];
    cols(names, N(names), c);
    sp_table_format excl = {c, N(c), 1, 1, 0, "run - s.h5 (2 ranks)", NULL, 0, 0, 0, 0};
    expect(session_rows, N(session_rows), &excl, "session_ascii.txt");
}

/* docs/cli.md "Units": one rule for every readable duration. */
static void test_duration_units(void **state) {
    (void)state;
    static const struct {
        double s;
        const char *utf8, *ascii;
    } cases[] = {
        {0.0, "0 s", "0 s"},          {22e-9, "22.0 ns", "22.0 ns"},
        {300e-6, "300 \xc2\xb5s", "300 us"}, {0.00306, "3.06 ms", "3.06 ms"},
        {20.1, "20.1 s", "20.1 s"},     {4127.4, "4127 s", "4127 s"},
        {0.0009997, "1.00 ms", "1.00 ms"}, {9.996e-3, "10.0 ms", "10.0 ms"},
        {NAN, "-", "-"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        char text[32];
        sp_format_duration(cases[i].s, 0, text, sizeof text);
        assert_string_equal(text, cases[i].utf8);
        sp_format_duration(cases[i].s, 1, text, sizeof text);
        assert_string_equal(text, cases[i].ascii);
    }
}

/* Readable counts: exact below 10 M (1,998,000 is not "2M"). */
static void test_exact_counts(void **state) {
    (void)state;
    static const struct {
        uint64_t v;
        const char *text;
    } cases[] = {{0, "0"}, {1998000, "1998000"}, {9999999, "9999999"},
                 {12345678, "12.3M"}, {1230000000, "1.23B"}};
    for (size_t i = 0; i < N(cases); i++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_format_count_exact(&b, cases[i].v);
        assert_string_equal(sp_textbuf_str(&b), cases[i].text);
        sp_textbuf_free(&b);
    }
}

static void test_no_rows(void **state) {
    (void)state;
    sp_table_rows r = {0, NULL, 0, 0.0, 0};
    sp_table_format fmt = {NULL, 0, 0, 0, 0, "run - x.h5 (1 rank)", "x.h5", 0, 0, 0, 0};
    char *text = format(&r, &fmt);
    assert_string_equal(text, "run - x.h5 (1 rank)\n  (no regions recorded)\n");
    free(text);
    fmt.title = NULL;
    fmt.suppress_notes = 1;
    text = format(&r, &fmt);
    assert_string_equal(text, "  (no regions recorded)\n");
    free(text);
}

/* --- cells ---------------------------------------------------------------- */

static char *count_text(uint64_t v) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_format_count(&b, v);
    return sp_textbuf_take(&b);
}

static void test_count_format(void **state) {
    (void)state;
    static const struct {
        uint64_t v;
        const char *want;
    } cases[] = {{0, "0"},
                 {1, "1"},
                 {999, "999"},
                 {1000, "1k"},
                 {1500, "1.5k"},
                 {123456, "123k"},
                 {999499, "999k"},
                 {999999, "1e+03k"},
                 {1000000, "1M"},
                 {2500000, "2.5M"},
                 {999999999, "1e+03M"},
                 {1000000000, "1B"},
                 {1234567890123ull, "1.23e+03B"},
                 {UINT64_MAX, "1.84e+10B"}};
    for (size_t i = 0; i < N(cases); i++) {
        char *t = count_text(cases[i].v);
        assert_string_equal(t, cases[i].want);
        free(t);
    }
}

static void test_pct_and_prefix(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_format_pct(&b, 1, 1.0, 1, 3.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 0, 1.0, 1, 3.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 1, 1.0, 0, 3.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 1, 1.0, 1, 0.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 1, 1.0, 1, -1.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 1, NAN, 1, 1.0);
    sp_textbuf_putc(&b, '|');
    sp_format_pct(&b, 1, 0.00004, 1, 1.0);
    sp_textbuf_putc(&b, '|');
    sp_format_tree_prefix(&b, 0, 0);
    sp_format_tree_prefix(&b, 1, 0);
    sp_textbuf_putc(&b, '|');
    sp_format_tree_prefix(&b, 3, 0);
    sp_textbuf_putc(&b, '|');
    sp_format_tree_prefix(&b, 3, 1);
    assert_string_equal(sp_textbuf_str(&b), "33.33%|-|-|-|-|-|0.00%|└─ |│ │ └─ || | \\- ");
    sp_textbuf_free(&b);
}

static void test_inline_count_only_without_calls_column(void **state) {
    (void)state;
    const sp_table_row rows[] = {
        {.name = "a", .calls = 2, .has_timing = 1, .total = 1.0, .num_ranks = 1},
        {.name = "b", .calls = 1, .has_timing = 1, .total = 0.5, .num_ranks = 1},
    };
    sp_table_rows r = make_rows(rows, 2);
    sp_cell_context ctx = {&r, 0, 1, 0, 0};
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_table_cell(&b, &rows[0], SP_COL_REGION, &ctx);
    sp_textbuf_putc(&b, '|');
    sp_table_cell(&b, &rows[1], SP_COL_REGION, &ctx);
    sp_textbuf_putc(&b, '|');
    ctx.inline_count = 0;
    sp_table_cell(&b, &rows[0], SP_COL_REGION, &ctx);
    assert_string_equal(sp_textbuf_str(&b), "a (2x)|b|a");
    sp_textbuf_free(&b);
}

static void test_unknown_values_print_dashes(void **state) {
    (void)state;
    /* A fallback row without calls: every statistic is None. */
    const sp_table_row row = {.name = "quiet",
                              .calls = 0,
                              .has_timing = 0,
                              .total = NAN,
                              .avg = NAN,
                              .min = NAN,
                              .p50 = NAN};
    sp_table_rows r = make_rows(&row, 1);
    sp_cell_context ctx = {&r, 0, 1, 0, 0};
    sp_textbuf b = SP_TEXTBUF_INIT;
    for (int c = 0; c < SP_COL_COUNT_; c++) {
        sp_table_cell(&b, &row, (sp_table_column)c, &ctx);
        sp_textbuf_putc(&b, '|');
    }
    assert_string_equal(sp_textbuf_str(&b), "quiet (0x)|0|0|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|");
    sp_textbuf_free(&b);
    /* Aggregate rows: timing known, percentiles not. */
    const sp_table_row agg = {.name = "agg",
                              .calls = 3,
                              .num_ranks = 1,
                              .has_timing = 1,
                              .total = 3.0,
                              .avg = 1.0,
                              .min = 0.5,
                              .max = 1.5,
                              .std = NAN,
                              .p50 = NAN,
                              .p95 = NAN,
                              .p99 = NAN,
                              .has_imbalance = 1};
    r = make_rows(&agg, 1);
    for (int c = 0; c < SP_COL_COUNT_; c++) {
        sp_table_cell(&b, &agg, (sp_table_column)c, &ctx);
        sp_textbuf_putc(&b, '|');
    }
    assert_string_equal(sp_textbuf_str(&b),
                        "agg (3x)|1|3|3.000000|-|-|1.000e+00|0.500|1.500|-|-|-|-|-|-|0.00|-|-|-|-|-|");
    sp_textbuf_free(&b);
}

static void test_own_row_cells(void **state) {
    (void)state;
    const sp_table_row row = {.name = "p",
                              .depth = 1,
                              .calls = 4,
                              .has_timing = 1,
                              .total = 2.0,
                              .has_exclusive = 1,
                              .exclusive = 0.5,
                              .coverage = 2.0};
    sp_table_rows r = make_rows(&row, 1);
    r.has_session_total = 1;
    r.session_total = 4.0;
    sp_cell_context ctx = {&r, 0, 1, 0, 0};
    sp_textbuf b = SP_TEXTBUF_INIT;
    for (int c = 0; c < SP_COL_COUNT_; c++) {
        sp_table_own_cell(&b, &row, (sp_table_column)c, &ctx);
        sp_textbuf_putc(&b, '|');
    }
    assert_string_equal(sp_textbuf_str(&b), "│ └─ (own)|||     0.500000|     12.50%|     25.00%|"
                                         "     1.250e-01|||||||||||||||");
    sp_textbuf_free(&b);
}

/* sp_table_print writes the same text to a stream. */
static void print_cb(FILE *f, void *arg) {
    sp_table_rows r = make_rows(tutorial_rows, N(tutorial_rows));
    sp_table_format fmt = {NULL, 0, 0, 0, 1, NULL, NULL, 0, 0, 0, 0};
    sp_error err = {SP_OK, ""};
    *(sp_status *)arg = sp_table_print(f, &r, &fmt, &err);
}

static void test_print_to_stream(void **state) {
    (void)state;
    sp_status st = SP_ERR_IO;
    char *text = capture(print_cb, &st);
    assert_int_equal(st, SP_OK);
    check_against(text, SP_FIXTURES_DIR, "py_tutorial2.table.txt");
    free(text);
}

static void test_layout_counts_code_points(void **state) {
    (void)state;
    const char *headers[] = {"région"};
    const char *cells[] = {"αβγδεζηθικλμ", "x"};
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_table_layout(&b, headers, 1, cells, 2, 0);
    assert_string_equal(sp_textbuf_str(&b), "  ╭──────────────╮\n"
                                         "  │ région       │\n"
                                         "  ├──────────────┤\n"
                                         "  │ αβγδεζηθικλμ │\n"
                                         "  │ x            │\n"
                                         "  ╰──────────────╯\n");
    sp_textbuf_free(&b);
}

/* A name holding a newline: its continuation line gets the table's two-space
 * indent too, as every line Python's table prints (item 9.4). */
static void test_newline_in_name_keeps_indent(void **state) {
    (void)state;
    const char *headers[] = {"region"};
    const char *cells[] = {"line\nbreak", "x"};
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_table_layout(&b, headers, 1, cells, 2, 0);
    assert_string_equal(sp_textbuf_str(&b), "  ╭────────────╮\n"
                                         "  │ region     │\n"
                                         "  ├────────────┤\n"
                                         "  │ line\n"
                                         "  break │\n"
                                         "  │ x          │\n"
                                         "  ╰────────────╯\n");
    sp_textbuf_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_columns_match_fixtures),
        cmocka_unit_test(test_statistics_columns),
        cmocka_unit_test(test_parent_percent_column),
        cmocka_unit_test(test_every_column),
        cmocka_unit_test(test_name_alias_and_headers),
        cmocka_unit_test(test_column_keys_match_analysis_list),
        cmocka_unit_test(test_unknown_columns),
        cmocka_unit_test(test_empty_column_list),
        cmocka_unit_test(test_session_percentages_and_notes),
        cmocka_unit_test(test_notes_with_hints),
        cmocka_unit_test(test_ascii),
        cmocka_unit_test(test_no_rows),
        cmocka_unit_test(test_duration_units),
        cmocka_unit_test(test_exact_counts),
        cmocka_unit_test(test_count_format),
        cmocka_unit_test(test_pct_and_prefix),
        cmocka_unit_test(test_inline_count_only_without_calls_column),
        cmocka_unit_test(test_unknown_values_print_dashes),
        cmocka_unit_test(test_own_row_cells),
        cmocka_unit_test(test_print_to_stream),
        cmocka_unit_test(test_layout_counts_code_points),
        cmocka_unit_test(test_newline_in_name_keeps_indent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
