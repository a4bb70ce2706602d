/*
 * The inline hot path and its fallback (issue 29): the same recording
 * program, built against the current header (inline path) and against the
 * previous ABIs' headers (tests/record/abi0: every call out of line; abi1:
 * the first inline path, over another layout), linked with this library,
 * records the same calls exactly; an old build is told once on stderr which
 * ABI it has, the new one not at all. Where valgrind is installed (and
 * the build is not sanitized) the inline build also runs under memcheck.
 */
#include <scope_profiler.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "record_support.h"

#define OLD_ABI_WARNING  "built against an older scope_profiler.h (hot-path ABI 0"
#define OLD_ABI1_WARNING "built against an older scope_profiler.h (hot-path ABI 1;"
#define ANY_OLD_WARNING  "built against an older scope_profiler.h"

/* Runs `program out` (under `wrapper` if not NULL) and returns its stderr. */
static char *run(const char *wrapper, const char *program, const char *out, int *status) {
    char *dir = rs_temp_dir();
    char *err_path = rs_path_in(dir, "stderr.txt");
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(err_path, "w", stderr)) _exit(126);
        setenv("SCOPE_PROFILER_QUIET", "1", 1);
        if (wrapper)
            execlp(wrapper, wrapper, "--quiet", "--error-exitcode=99", "--leak-check=no", program,
                   out, (char *)NULL);
        else
            execl(program, program, out, (char *)NULL);
        _exit(127);
    }
    waitpid(pid, status, 0);
    FILE *f = fopen(err_path, "r");
    assert_non_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    rs_remove_tree(dir);
    free(err_path);
    free(dir);
    return strdup(text);
}

/* The pattern hot_path_program.c records, checked call by call. */
static void check_profile(const char *path) {
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "outer"), 3);
    assert_int_equal(rs_calls_of(&p, "inner"), 6);
    assert_int_equal(rs_calls_of(&p, "named"), 4);
    assert_int_equal(rs_calls_of(&p, "runtime"), 5);
    assert_int_equal(rs_calls_of(&p, "scoped"), 2);
    assert_int_equal(rs_calls_of(&p, "deep"), 100);
    assert_int_equal(rs_calls_of(&p, "many"), 70000);
    /* every inner call lies inside one outer call, two per outer call */
    long o = rs_row_of(&p, "outer"), in = rs_row_of(&p, "inner");
    assert_true(o >= 0 && in >= 0);
    for (int64_t k = 0; k < 3; k++) {
        int64_t os = p.starts[p.offsets[o] + k], oe = os + p.durations[p.offsets[o] + k];
        for (int64_t j = 0; j < 2; j++) {
            int64_t is = p.starts[p.offsets[in] + 2 * k + j];
            int64_t ie = is + p.durations[p.offsets[in] + 2 * k + j];
            assert_true(os <= is && ie <= oe);
        }
    }
    /* the recursion: each level inside the one above it */
    long d = rs_row_of(&p, "deep");
    for (int64_t k = 1; k < 100; k++) {
        int64_t ps = p.starts[p.offsets[d] + k - 1], cs = p.starts[p.offsets[d] + k];
        assert_true(ps <= cs);
        assert_true(cs + p.durations[p.offsets[d] + k] <= ps + p.durations[p.offsets[d] + k - 1]);
    }
    for (size_t e = 0; e < p.num_events; e++)
        assert_true(p.durations[e] >= 0);
    rs_profile_free(&p);
}

/* expect_warning: how often OLD_ABI_WARNING appears; `abi1`: the program is the
 * ABI 1 build, whose warning names that ABI instead. */
static void records_abi(const char *wrapper, const char *program, int expect_warning, int abi1) {
    char *dir = rs_temp_dir();
    char *out = rs_path_in(dir, "run.h5");
    int status = 0;
    char *err = run(wrapper, program, out, &status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(stderr, "stderr:\n%s\n", err);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(rs_count(err, OLD_ABI_WARNING), abi1 ? 0 : expect_warning);
    assert_int_equal(rs_count(err, OLD_ABI1_WARNING), abi1 ? expect_warning : 0);
    assert_int_equal(rs_count(err, ANY_OLD_WARNING), expect_warning);
    /* the stray sp_end(inner) with only the session root open, reported once */
    assert_int_equal(rs_count(err, "sp_end(\"inner\") at "), 1);
    assert_int_equal(rs_count(err, "hot_path_program.c:"), 1);
    check_profile(out);
    free(err);
    rs_remove_tree(dir);
    free(out);
    free(dir);
}

static void records(const char *wrapper, const char *program, int expect_warning) {
    records_abi(wrapper, program, expect_warning, 0);
}

static void current_header_records_inline(void **state) {
    (void)state;
    records(NULL, SP_CURRENT_PROGRAM, 0);
}

static void previous_abi_falls_back_with_one_warning(void **state) {
    (void)state;
    records(NULL, SP_ABI0_PROGRAM, 1);
}

static void abi1_falls_back_with_one_warning(void **state) {
    (void)state;
    records_abi(NULL, SP_ABI1_PROGRAM, 1, 1);
}

static void inline_path_under_valgrind(void **state) {
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    skip(); /* valgrind cannot run a sanitized program */
#else
    if (!*SP_VALGRIND) skip();
    records(SP_VALGRIND, SP_CURRENT_PROGRAM, 0);
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(current_header_records_inline),
        cmocka_unit_test(previous_abi_falls_back_with_one_warning),
        cmocka_unit_test(abi1_falls_back_with_one_warning),
        cmocka_unit_test(inline_path_under_valgrind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
