#include <math.h>
/* The chart building blocks with known inputs: units and ticks, text
 * fitting, escaping, colours, pixel merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/markup_escape.h"
#include "plot/plot_internal.h"

static void test_format_seconds(void **state) {
    (void)state;
    char s[32];
    sp_format_seconds(0.00306, s, sizeof s);
    assert_string_equal(s, "3.06 ms");
    sp_format_seconds(20.1, s, sizeof s);
    assert_string_equal(s, "20.1 s");
    sp_format_seconds(0, s, sizeof s);
    assert_string_equal(s, "0 s");
    sp_format_seconds(1.5e-7, s, sizeof s);
    assert_string_equal(s, "150 ns");
    sp_format_seconds(2.5e-5, s, sizeof s);
    assert_string_equal(s, "25.0 \xC2\xB5s");
    sp_format_seconds(123.4, s, sizeof s);
    assert_string_equal(s, "123 s");
}

static void test_ticks(void **state) {
    (void)state;
    double t[32], step;
    int n = sp_nice_ticks(0, 0.0252, 12, t, 32, &step);
    assert_float_equal(step, 0.005, 1e-15);
    assert_int_equal(n, 6); /* 0, 5, 10, 15, 20, 25 ms */
    assert_float_equal(t[5], 0.025, 1e-15);
    n = sp_nice_ticks(0, 1.0, 3, t, 32, &step);
    assert_float_equal(step, 0.5, 1e-15);
    assert_int_equal(n, 3);
    char s[32];
    sp_format_tick(0.0025, sp_time_unit_for(0.01), 0.0005, s, sizeof s);
    assert_string_equal(s, "2.5 ms");
    sp_format_tick(0.004, sp_time_unit_for(0.01), 0.002, s, sizeof s);
    assert_string_equal(s, "4 ms");
    assert_string_equal(sp_time_unit_for(3e-7).suffix, "ns");
}

static void test_fit_text(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    /* DejaVu Sans advances at 11 px: a b c d e = 613 635 550 635 615 / 1000 em */
    assert_true(fabs(sp_text_width("abcde", 11, 0) - 33.528) < 1e-9);
    assert_true(sp_text_width("MPI_ALLREDUCE", 11, 0) > sp_text_width("mpi_allreduce", 11, 0) + 10);
    assert_true(sp_text_width("abc", 14, 1) > sp_text_width("abc", 14, 0));
    assert_int_equal(sp_fit_text("abcdefghij", 40, 11, 0, &b), 1);
    assert_string_equal(sp_textbuf_str(&b), "abcd\xE2\x80\xA6");
    sp_textbuf_reset(&b);
    assert_int_equal(sp_fit_text("abcde", 34, 11, 0, &b), 0);
    assert_string_equal(sp_textbuf_str(&b), "abcde");
    sp_textbuf_reset(&b);
    /* "ünïcödé": cut after four characters, never inside one */
    assert_int_equal(sp_fit_text("\xC3\xBCn\xC3\xAF"
                                 "c\xC3\xB6"
                                 "d\xC3\xA9",
                                 40, 11, 0, &b),
                     1);
    assert_string_equal(sp_textbuf_str(&b), "\xC3\xBCn\xC3\xAF"
                                            "c\xE2\x80\xA6");
    sp_textbuf_reset(&b);
    /* a lane label keeps its " · r12" and loses the end of the name */
    assert_int_equal(sp_fit_text("very_long_region_name \xC2\xB7 r12", 100, 11, 0, &b), 1);
    assert_string_equal(sp_textbuf_str(&b), "very_long_\xE2\x80\xA6 \xC2\xB7 r12");
    sp_textbuf_free(&b);
}

static void test_escape(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_markup_escape(&b, "<script>alert(1)</script>");
    assert_string_equal(sp_textbuf_str(&b), "&lt;script&gt;alert(1)&lt;/script&gt;");
    sp_textbuf_reset(&b);
    sp_markup_escape(&b, "\" onmouseover=\"x & 'y'");
    assert_string_equal(sp_textbuf_str(&b), "&quot; onmouseover=&quot;x &amp; &#39;y&#39;");
    sp_textbuf_reset(&b);
    sp_markup_escape(&b, "a\nb\x01"
                         "c\xFF"
                         "d\xC3\xBC");
    assert_string_equal(sp_textbuf_str(&b), "a&#10;b\xEF\xBF\xBD"
                                            "c\xF4\x8F\xBB\xBF" /* U+10FEFF: byte 0xFF */
                                            "d\xC3\xBC");
    sp_textbuf_reset(&b);
    sp_script_json_string(&b, "</script><b>&");
    assert_string_equal(sp_textbuf_str(&b), "\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\"");
    sp_textbuf_free(&b);
}

static void test_colours(void **state) {
    (void)state;
    char a[8], b[8], c[8];
    sp_region_colour("solve", a);
    sp_region_colour("solve", b);
    sp_region_colour("assemble", c);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_int_equal(strlen(a), 7);
    assert_int_equal(a[0], '#');
    assert_true(sp_colour_is_dark("#203040"));
    assert_false(sp_colour_is_dark("#f0f0a0"));
}

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

static void test_px_merge(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_px_lane l;
    sp_px_lane_init(&l, &b, 10, 5, "lane");
    /* 1000 calls of 0.05 px, one every 0.1 px: 100 px of columns, one bar,
     * half busy (summed in floating point just under 0.5: the 0.25-0.5 step,
     * opacity 0.55), written as one path with one tooltip */
    for (int i = 0; i < 1000; i++)
        sp_px_lane_add(&l, 10 + 0.1 * i, 10 + 0.1 * i + 0.05, 3, "#112233", "r", "tip");
    sp_px_lane_finish(&l);
    assert_int_equal(l.bars, 1);
    assert_int_equal(count(sp_textbuf_str(&b), "<rect"), 0);
    assert_string_equal(
        sp_textbuf_str(&b),
        "<path d=\"M10 10.0h100v5.0h-100z\" fill=\"#112233\" fill-opacity=\"0.55\" "
        "data-r=\"3\"><title>lane: 1000 calls shorter than a pixel</title></path>\n");
    sp_textbuf_reset(&b);
    /* calls 2 px wide stay single; sub-pixel calls 4.8 px apart do not merge,
     * 0.7 px apart they do (two regions: grey, no data-r) */
    sp_px_lane_init(&l, &b, 0, 5, "lane");
    sp_px_lane_add(&l, 0, 2, 1, "#112233", "r", "one");
    sp_px_lane_add(&l, 3, 5, 1, "#112233", "r", "two");
    sp_px_lane_add(&l, 10.2, 10.4, 1, "#112233", "r", NULL);
    sp_px_lane_add(&l, 15.2, 15.4, 2, "#445566", "q", NULL);
    sp_px_lane_add(&l, 16.1, 16.2, 1, "#112233", "r", NULL);
    sp_px_lane_finish(&l);
    assert_int_equal(l.bars, 4);
    assert_int_equal(count(sp_textbuf_str(&b), "<rect"), 2);
    assert_int_equal(count(sp_textbuf_str(&b), "<path"), 2);
    assert_non_null(strstr(sp_textbuf_str(&b), "<title>one</title>"));
    assert_non_null(strstr(sp_textbuf_str(&b),
                           "<path d=\"M10 0.0h1v5.0h-1z\" fill=\"#112233\" fill-opacity=\"0.35\" "
                           "data-r=\"1\">"));
    assert_non_null(strstr(sp_textbuf_str(&b),
                           "<path d=\"M15 0.0h2v5.0h-2z\" fill=\"#999999\" fill-opacity=\"0.35\">"
                           "<title>lane: 2 calls shorter than a pixel</title>"));
    sp_textbuf_reset(&b);
    /* a recursive region: 100000 nested calls of one colour under the outer
     * bar cost nothing; a later call past its end, or of another colour
     * inside it, is drawn */
    sp_px_lane_init(&l, &b, 0, 5, "lane");
    for (int i = 0; i < 100000; i++)
        sp_px_lane_add(&l, 10 + 1e-5 * i, 600 - 1e-5 * i, 1, "#112233", "r", "rec");
    sp_px_lane_add(&l, 20, 30, 2, "#445566", "q", "other");
    sp_px_lane_add(&l, 590, 610, 1, "#112233", "r", "after");
    sp_px_lane_finish(&l);
    assert_int_equal(l.bars, 3);
    assert_int_equal(count(sp_textbuf_str(&b), "<rect"), 3);
    assert_int_equal(count(sp_textbuf_str(&b), "<title>rec</title>"), 1);
    assert_non_null(strstr(sp_textbuf_str(&b), "<title>after</title>"));
    sp_textbuf_free(&b);
}

static void test_kind_names(void **state) {
    (void)state;
    sp_plot_kind k;
    for (int i = 0; i < SP_PLOT_NUM_KINDS; i++) {
        assert_true(sp_plot_kind_from_name(sp_plot_kind_name((sp_plot_kind)i), &k));
        assert_int_equal(k, i);
    }
    assert_false(sp_plot_kind_from_name("pie", &k));
    assert_null(sp_plot_kind_name((sp_plot_kind)99));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_seconds), cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_fit_text),       cmocka_unit_test(test_escape),
        cmocka_unit_test(test_colours),        cmocka_unit_test(test_px_merge),
        cmocka_unit_test(test_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
