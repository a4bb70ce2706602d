/*
 * A path node's durations (src/analysis/node_calls.h): consecutive values of
 * a column are borrowed as one span, other values copied, fragmented runs
 * copied once spans would cost more, and the values read back in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/node_calls.h"

/* The values of c in order, into out; returns how many. */
static size_t flatten(const sp_node_calls *c, int64_t *out) {
    size_t k = 0;
    for (size_t s = 0; s < c->num_spans; s++)
        for (size_t i = 0; i < c->spans[s].n; i++)
            out[k++] = c->spans[s].x[i];
    return k;
}

static void consecutive_runs_are_one_span(void **state) {
    (void)state;
    int64_t column[100];
    for (int i = 0; i < 100; i++)
        column[i] = 1000 + i;
    sp_node_calls c = {0};
    for (int i = 10; i < 60; i++)
        assert_int_equal(sp_node_calls_borrow(&c, &column[i]), SP_OK);
    assert_int_equal(c.num_spans, 1);
    assert_ptr_equal(c.spans[0].x, &column[10]);
    assert_int_equal(c.spans[0].n, 50);
    assert_int_equal(c.num_chunks, 0); /* nothing copied */
    assert_int_equal(sp_node_calls_copy(&c, 7), SP_OK);
    assert_int_equal(sp_node_calls_copy(&c, 8), SP_OK);
    assert_int_equal(sp_node_calls_borrow(&c, &column[80]), SP_OK);
    assert_int_equal(c.num_spans, 3); /* borrowed, copied, borrowed */
    assert_int_equal(c.count, 53);
    int64_t out[64];
    assert_int_equal(flatten(&c, out), 53);
    assert_int_equal(out[0], 1010);
    assert_int_equal(out[49], 1059);
    assert_int_equal(out[50], 7);
    assert_int_equal(out[51], 8);
    assert_int_equal(out[52], 1080);
    sp_node_calls_free(&c);
    assert_null(c.spans);
}

static void scattered_values_are_copied(void **state) {
    (void)state;
    enum { N = 1000 };
    int64_t *column = malloc(2 * N * sizeof *column);
    assert_non_null(column);
    for (int i = 0; i < 2 * N; i++)
        column[i] = i * 3;
    sp_node_calls c = {0};
    for (int i = 0; i < N; i++) /* every other value: no two adjacent */
        assert_int_equal(sp_node_calls_borrow(&c, &column[2 * i]), SP_OK);
    assert_int_equal(c.count, N);
    /* at most one span per 4 values (plus the first 16), the rest copied */
    assert_true(c.num_spans <= N / 4 + 16);
    assert_true(c.num_chunks > 0);
    int64_t *out = malloc(N * sizeof *out);
    assert_non_null(out);
    assert_int_equal(flatten(&c, out), N);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 6 * i);
    free(out);
    free(column);
    sp_node_calls_free(&c);
}

static void copies_span_chunk_boundaries(void **state) {
    (void)state;
    enum { N = 70000 }; /* chunks of 16, 32, ... values: many boundaries */
    sp_node_calls c = {0};
    for (int i = 0; i < N; i++)
        assert_int_equal(sp_node_calls_copy(&c, i), SP_OK);
    assert_int_equal(c.num_spans, c.num_chunks); /* one span per chunk */
    int64_t *out = malloc(N * sizeof *out);
    assert_non_null(out);
    assert_int_equal(flatten(&c, out), N);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], i);
    free(out);
    sp_node_calls_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(consecutive_runs_are_one_span),
        cmocka_unit_test(scattered_values_are_copied),
        cmocka_unit_test(copies_span_chunk_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
