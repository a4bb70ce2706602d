/* Recording: mismatched and unmatched ends, open calls at finalize, and
 * write failures (missing directory, no permission, full disk). */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

typedef rs_fixture fixture;

static void start_at(const char *path) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
}

/* begin A, begin B, end A: A ends, B is dropped; reported once for the site. */
static void test_out_of_order_end(void **state) {
    fixture *f = *state;
    start_at(f->path);
    sp_region_t a = sp_region("A"), b = sp_region("B"), c = sp_region("C");
    int end_line = 0;
    rs_capture_stderr_begin();
    for (int i = 0; i < 3; i++) {
        sp_begin(a);
        sp_begin(b);
        /* the line number must be this statement's */
        // clang-format off
        sp_end(a); end_line = __LINE__;
        // clang-format on
    }
    sp_begin(c); /* recording goes on */
    sp_end(c);
    char *err = rs_capture_stderr_end();
    char expected[256];
    snprintf(expected, sizeof expected,
             "sp_end(\"A\") at %s:%d while \"B\" is the innermost open region: ended \"A\" and "
             "dropped 1 call(s)",
             __FILE__, end_line);
    assert_non_null(strstr(err, expected));
    assert_int_equal(rs_count(err, "scope-profiler: sp_end("), 1); /* once per call site */
    free(err);

    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "3 call(s) dropped by mismatched sp_end() were left out"));
    free(err);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "A"), 3);
    assert_int_equal(rs_calls_of(&p, "B"), 0);
    assert_int_equal(rs_calls_of(&p, "C"), 1);
    assert_int_equal(p.num_regions, 3); /* the session root, A, C: B recorded nothing */
    rs_profile_free(&p);
}

static void test_unmatched_end(void **state) {
    fixture *f = *state;
    start_at(f->path);
    sp_region_t a = sp_region("A"), z = sp_region("Z");
    int line_none = 0, line_other = 0;
    rs_capture_stderr_begin();
    for (int i = 0; i < 2; i++) {
        /* the line number must be this statement's */
        // clang-format off
        sp_end(z); line_none = __LINE__;
        // clang-format on
    }
    sp_begin(a);
    /* the line number must be this statement's */
    // clang-format off
    sp_end(z); line_other = __LINE__;
    // clang-format on
    sp_end(a);
    char *err = rs_capture_stderr_end();
    char expected[256];
    snprintf(expected, sizeof expected,
             "sp_end(\"Z\") at %s:%d but no region is open on this thread; ignored", __FILE__,
             line_none);
    assert_non_null(strstr(err, expected));
    snprintf(expected, sizeof expected,
             "sp_end(\"Z\") at %s:%d matches no open call of \"Z\" on this thread (innermost "
             "open region: \"A\"); ignored",
             __FILE__, line_other);
    assert_non_null(strstr(err, expected));
    assert_int_equal(rs_count(err, "scope-profiler: "), 2);
    free(err);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "A"), 1);
    rs_profile_free(&p);
}

static void test_open_calls_left_out(void **state) {
    fixture *f = *state;
    start_at(f->path);
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    for (int i = 0; i < 4; i++) {
        sp_begin(inner);
        sp_end(inner);
    }
    sp_begin(outer);
    sp_begin(inner); /* both still open at finalize */
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "2 call(s) still open at finalize were left out: \"outer\" "
                                "(thread 0, depth 0), \"inner\" (thread 0, depth 1)"));
    free(err);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "inner"), 4); /* every completed call kept */
    assert_int_equal(rs_calls_of(&p, "outer"), 0);
    rs_profile_free(&p);
}

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static void test_missing_directory(void **state) {
    fixture *f = *state;
    char *path = rs_path_in(f->dir, "no/such/dir/profile.h5");
    char *tmp = rs_temp_dir(); /* the fallback lands here */
    setenv("TMPDIR", tmp, 1);
    start_at(path);
    SP_REGION("kept") {}
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_ERR_NO_DIRECTORY);
    char *err = rs_capture_stderr_end();
    unsetenv("TMPDIR");
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "No such file or directory"));
    assert_non_null(strstr(err, "create the directory or choose another path"));
    /* the data is not lost: it went to $TMPDIR */
    assert_non_null(strstr(err, "the profile was saved to "));
    assert_non_null(strstr(err, tmp));
    assert_int_equal(count_entries(tmp), 1);
    free(err);
    rs_remove_tree(tmp);
    free(tmp);
    free(path);
}

static void test_unwritable_directory(void **state) {
    fixture *f = *state;
    char *path;
    if (geteuid() == 0) {
        /* root ignores permission bits, but sysfs refuses new files even to root */
        if (access("/sys/kernel", F_OK) != 0) skip();
        path = strdup("/sys/kernel/scope_profiler_test.h5");
    } else {
        assert_int_equal(chmod(f->dir, 0500), 0);
        path = strdup(f->path);
    }
    char *tmp = rs_temp_dir();
    setenv("TMPDIR", tmp, 1);
    start_at(path);
    SP_REGION("kept") {}
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_ERR_PERMISSION);
    char *err = rs_capture_stderr_end();
    unsetenv("TMPDIR");
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "Permission denied"));
    assert_non_null(strstr(err, "choose a writable directory"));
    assert_int_equal(count_entries(tmp), 1);
    free(err);
    rs_remove_tree(tmp);
    free(tmp);
    free(path);
}

/* Reads a whole file (for comparing an old profile before and after a failed write). */
static char *slurp(const char *path, size_t *n) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc(*n + 1);
    *n = fread(buf, 1, *n, fp);
    fclose(fp);
    return buf;
}

/* A full disk, simulated with RLIMIT_FSIZE in a child process: the older
 * profile at the target survives byte for byte, no temporary file stays. */
static void test_full_disk_keeps_old_profile(void **state) {
    fixture *f = *state;
    start_at(f->path);
    SP_REGION("old") {}
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    size_t old_size;
    char *old = slurp(f->path, &old_size);
    assert_non_null(old);

    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead of killing us */
        struct rlimit lim = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &lim);
        setenv("TMPDIR", f->dir, 1); /* the fallback fails under the same limit */
        setenv("SCOPE_PROFILER_JOURNAL", "0", 1); /* a journal would be kept: not this test's */
        start_at(f->path);
        sp_region_t h = sp_region("many");
        for (int i = 0; i < 20000; i++) {
            sp_begin(h);
            sp_end(h);
        }
        freopen("/dev/null", "w", stdout);
        char errpath[4096];
        snprintf(errpath, sizeof errpath, "%s.stderr", f->dir);
        freopen(errpath, "w", stderr);
        int ok = sp_finalize(&quiet) == SP_ERR_DISK_FULL;
        fflush(NULL); /* _exit does not flush the reopened stderr */
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);

    char errpath[4096];
    snprintf(errpath, sizeof errpath, "%s.stderr", f->dir);
    size_t n;
    char *err = slurp(errpath, &n);
    unlink(errpath);
    assert_non_null(err);
    err[n] = '\0';
    assert_non_null(strstr(err, f->path));
    assert_non_null(strstr(err, "free some space or write elsewhere"));
    assert_non_null(strstr(err, "no profile was written; the fallback failed too"));
    free(err);

    size_t new_size;
    char *now = slurp(f->path, &new_size);
    assert_int_equal(new_size, old_size);
    assert_memory_equal(now, old, old_size);
    assert_int_equal(count_entries(f->dir), 1); /* no temporary files left behind */
    free(now);
    free(old);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_out_of_order_end, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_unmatched_end, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_open_calls_left_out, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_missing_directory, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_unwritable_directory, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_full_disk_keeps_old_profile, rs_setup_dir,
                                        rs_teardown_dir),
    };
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
