/*
 * The call merge on a helper thread (src/analysis/merge_pipe.c): a walk
 * gives the same visits in the same order whether the consumer merges the
 * calls itself or a second thread runs batches ahead; a visitor that stops
 * the walk early, and damage found mid-way, end it cleanly (no hang, no
 * leak: run under ASan and TSan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/call_tree.h"
#include "analysis/internal.h"
#include "model_builder.h"

static const char *const regions[] = {"step", "solve", "io"};

/* Per rank: `steps` steps, each holding a solve and an io call on thread 0
 * and a solve on thread 1 (a worker's call under the step). */
static sp_results *build(size_t steps, int negative_at) {
    size_t n = 2 * steps * 4;
    mb_call *calls = malloc(n * sizeof *calls);
    size_t k = 0;
    for (uint32_t rank = 0; rank < 2; rank++) {
        for (int region = 0; region < 3; region++)
            for (size_t s = 0; s < steps; s++) {
                int64_t t = (int64_t)s * 1000 + rank;
                if (region == 0) calls[k++] = (mb_call){0, rank, t, t + 900, 0};
                if (region == 1) {
                    calls[k++] = (mb_call){1, rank, t + 10, t + 400 + (int64_t)(s % 7), 0};
                    calls[k++] = (mb_call){1, rank, t + 20, t + 300, 1};
                }
                if (region == 2) calls[k++] = (mb_call){2, rank, t + 500, t + 800, 0};
            }
    }
    if (negative_at >= 0) calls[negative_at].end = calls[negative_at].start - 5;
    mb_spec spec = {
        .regions = regions, .num_regions = 3, .calls = calls, .num_calls = k, .with_threads = 1};
    sp_results *r = mb_results(&spec);
    free(calls);
    return r;
}

typedef struct record {
    uint64_t *log; /* event, parent event + 1 (0: root), lane; or leave: ~event */
    size_t len, cap;
    size_t stop_after; /* enter fails with SP_ERR_IO after this many calls; 0: never */
    size_t entered;
} record;

static void put(record *rec, uint64_t v) {
    if (rec->len == rec->cap) {
        rec->cap = rec->cap ? 2 * rec->cap : 1024;
        rec->log = realloc(rec->log, rec->cap * sizeof *rec->log);
        assert_non_null(rec->log);
    }
    rec->log[rec->len++] = v;
}

static sp_status enter(void *ctx, sp_tree_frame *call, sp_tree_frame *parent) {
    record *rec = ctx;
    if (rec->stop_after && ++rec->entered > rec->stop_after) return SP_ERR_IO;
    put(rec, call->event);
    put(rec, parent ? parent->event + 1 : 0);
    put(rec, (uint64_t)call->lane);
    put(rec, (uint64_t)call->start ^ (uint64_t)call->end << 1);
    return SP_OK;
}

static void leave(void *ctx, const sp_tree_frame *call) {
    put(ctx, ~call->event);
}

/* Walks every rank; the pipeline forced (threshold 0) or left to its default. */
static sp_status walk_all(const sp_results *r, int forced, record *rec, sp_error *err) {
    if (forced) {
        setenv("SCOPE_PROFILER_PIPE_MIN_CALLS", "0", 1);
        setenv("SCOPE_PROFILER_THREADS", "2", 1);
    } else {
        setenv("SCOPE_PROFILER_THREADS", "1", 1);
    }
    uint32_t rows[4];
    sp_tree_visitor v = {enter, leave, rec};
    sp_status st = SP_OK;
    for (uint32_t rank = 0; rank < 2 && st == SP_OK; rank++) {
        size_t n = sp_rank_rows(r, rank, r->start_order, r->m.num_regions, rows);
        st = sp_tree_walk(r, rows, n, &v, err);
    }
    unsetenv("SCOPE_PROFILER_PIPE_MIN_CALLS");
    unsetenv("SCOPE_PROFILER_THREADS");
    return st;
}

static void assert_same_walks(size_t steps) {
    sp_results *r = build(steps, -1);
    record inline_walk = {0}, piped = {0};
    sp_error err;
    assert_int_equal(walk_all(r, 0, &inline_walk, &err), SP_OK);
    assert_int_equal(walk_all(r, 1, &piped, &err), SP_OK);
    assert_int_equal(inline_walk.len, steps * 2 * (4 * 4 + 4));
    assert_int_equal(piped.len, inline_walk.len);
    assert_memory_equal(piped.log, inline_walk.log, piped.len * sizeof *piped.log);
    free(inline_walk.log);
    free(piped.log);
    sp_results_free(r);
}

/* From less than one batch to many times the ring of batches. */
static void test_same_visits_in_the_same_order(void **state) {
    (void)state;
    assert_same_walks(1);
    assert_same_walks(511);
    assert_same_walks(512);
    assert_same_walks(5000);
}

/* The visitor stops the walk while the helper is batches ahead. */
static void test_visitor_stops_the_walk(void **state) {
    (void)state;
    sp_results *r = build(5000, -1);
    for (size_t stop = 1; stop < 20000; stop = stop * 3 + 7) {
        record rec = {.stop_after = stop};
        sp_error err;
        assert_int_equal(walk_all(r, 1, &rec, &err), SP_ERR_IO);
        assert_int_equal(rec.entered, stop + 1);
        free(rec.log);
    }
    sp_results_free(r);
}

/* A call that ends before it starts, deep in the stream, ends the walk with
 * the same error either way. */
static void test_damage_mid_stream(void **state) {
    (void)state;
    sp_results *r = build(5000, 12345);
    for (int forced = 0; forced <= 1; forced++) {
        record rec = {0};
        sp_error err;
        assert_int_equal(walk_all(r, forced, &rec, &err), SP_ERR_NESTING);
        assert_string_equal(err.message, "a recorded call ends before it starts");
        free(rec.log);
    }
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_visits_in_the_same_order),
        cmocka_unit_test(test_visitor_stops_the_walk),
        cmocka_unit_test(test_damage_mid_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
