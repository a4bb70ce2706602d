/* Fault injection: the n-th allocation made by the library (malloc, calloc,
 * realloc, strdup, wrapped at link time) fails, for every n until a call
 * succeeds. Each presenter must then fail with SP_ERR_OUT_OF_MEMORY (or
 * succeed), print nothing partial, and leak nothing (run under ASan or
 * valgrind). json-c and libc allocate through their own, unwrapped calls. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "present/json_export.h"
#include "present/summary_out.h"
#include "present/table.h"
#include "table_cases.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static long countdown = -1; /* fail when it reaches 0; negative: never */
static int injected;

static int fail_now(void) {
    if (countdown < 0) return 0;
    if (countdown-- == 0) {
        injected = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n) {
    return fail_now() ? NULL : __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t size) {
    return fail_now() ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n) {
    return fail_now() ? NULL : __real_realloc(p, n);
}
char *__wrap_strdup(const char *s) {
    return fail_now() ? NULL : __real_strdup(s);
}

static void arm(long n) {
    countdown = n;
    injected = 0;
}

static void disarm(void) {
    countdown = -1;
}

/* Runs `call` with the n-th allocation failing, n = 0, 1, ... until a run
 * sees no injected failure; every failing run must report out of memory. */
#define EVERY_FAILURE(setup, call, on_failure, cleanup)                                            \
    for (long n_ = 0;; n_++) {                                                                     \
        setup;                                                                                     \
        arm(n_);                                                                                   \
        sp_status st_ = (call);                                                                    \
        int hit_ = injected;                                                                       \
        disarm();                                                                                  \
        if (hit_ && st_ != SP_OK) {                                                                \
            assert_int_equal(st_, SP_ERR_OUT_OF_MEMORY);                                           \
            on_failure;                                                                            \
        }                                                                                          \
        cleanup;                                                                                   \
        if (!hit_) {                                                                               \
            assert_int_equal(st_, SP_OK);                                                          \
            break;                                                                                 \
        }                                                                                          \
    }

static void test_injection_reaches_the_library(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    arm(0);
    sp_textbuf_append(&b, "x");
    disarm();
    assert_true(injected);
    assert_true(sp_textbuf_failed(&b));
    sp_textbuf_free(&b);
}

static void test_table_text(void **state) {
    (void)state;
    sp_table_rows rows = {N(tutorial_rows), (sp_table_row *)tutorial_rows, 0, 0.0, 0};
    sp_table_format fmt = {NULL, 0, 0, 0, 0, "tutorial 2 - py_tutorial2.h5 (1 rank)", "it's.h5", 0, 0, 0, 0};
    sp_textbuf out = SP_TEXTBUF_INIT;
    sp_error err;
    EVERY_FAILURE(sp_textbuf_reset(&out), sp_table_format_text(&out, &rows, &fmt, &err), ,
                  sp_textbuf_free(&out));
    const char *cols[] = {"region", "bogus"};
    sp_table_column c[2];
    EVERY_FAILURE(
        , sp_table_columns_parse(cols, 2, c, &err) == SP_ERR_BAD_OPTION ? SP_OK : SP_ERR_IO, , );
}

static sp_results *fixture(const char *stem) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    sp_error err;
    sp_results *r = sp_read(path, &err);
    assert_non_null(r);
    return r;
}

static void test_print_summary(void **state) {
    (void)state;
    /* every allocation of sp_table_rows_build and the table printer fails in turn */
    sp_results *r = fixture("multirank_schema3");
    sp_error err;
    const char *cols[] = {"region", "calls", "total", "percent", "parent_percent", "p95"};
    sp_print_options opt = {0};
    opt.columns = cols;
    opt.num_columns = N(cols);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = NULL;
    EVERY_FAILURE(mem = open_memstream(&text, &len), sp_print_summary(r, mem, &opt, &err),
                  (fflush(mem), assert_int_equal(len, 0)), (fclose(mem), free(text)));
    sp_results_free(r);
}

static sp_status stats_text(const sp_results *const *runs, size_t n, char **out, sp_error *err) {
    *out = sp_collect_region_statistics(runs, n, NULL, err);
    return *out ? SP_OK : err->status;
}

static sp_status metadata_text(const sp_results *const *runs, size_t n, char **out, sp_error *err) {
    *out = sp_collect_metadata_json(runs, n, err);
    return *out ? SP_OK : err->status;
}

static void test_json_exports(void **state) {
    (void)state;
    sp_results *a = fixture("py_tutorial2");
    sp_results *b = fixture("multirank_schema3");
    const sp_results *runs[] = {a, b, a};
    sp_error err;
    char *text = NULL;
    EVERY_FAILURE(text = NULL, stats_text(runs, 3, &text, &err), assert_null(text), free(text));
    EVERY_FAILURE(text = NULL, metadata_text(runs, 3, &text, &err), assert_null(text), free(text));
    sp_results_free(a);
    sp_results_free(b);
}

static void test_summary_rows(void **state) {
    (void)state;
    sp_results *r = fixture("legacy_schema1");
    sp_error err;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = NULL;
    for (int per_rank = 0; per_rank < 2; per_rank++) {
        EVERY_FAILURE(mem = open_memstream(&text, &len),
                      sp_write_summary_csv(r, mem, NULL, per_rank, &err),
                      (fflush(mem), assert_int_equal(len, 0)), (fclose(mem), free(text)));
        EVERY_FAILURE(mem = open_memstream(&text, &len),
                      sp_write_summary_json(r, mem, NULL, per_rank, &err),
                      (fflush(mem), assert_int_equal(len, 0)), (fclose(mem), free(text)));
    }
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injection_reaches_the_library),
        cmocka_unit_test(test_table_text),
        cmocka_unit_test(test_print_summary),
        cmocka_unit_test(test_json_exports),
        cmocka_unit_test(test_summary_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
