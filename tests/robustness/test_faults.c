/*
 * Faults around the files (docs/robustness.md): a FIFO given as input,
 * RLIMIT_FSIZE while writing, two runs writing the same output path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../record/record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

static void record_calls(int n) {
    sp_region_t h = sp_region("work");
    for (int i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
}

static int count_temporaries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "reading a FIFO hung\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(3);
}

/* A FIFO as input: a clear error at once, not a process blocked in open(). */
static void fifo_input_is_refused(void **state) {
    rs_fixture *fx = *state;
    char *fifo = rs_path_in(fx->dir, "in.h5");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    signal(SIGALRM, on_alarm);
    alarm(5);
    sp_error err;
    sp_results *r = sp_read(fifo, &err);
    alarm(0);
    assert_null(r);
    assert_int_equal(err.status, SP_ERR_IO);
    assert_non_null(strstr(err.message, "is a FIFO, not a regular file"));
    free(fifo);
}

/* RLIMIT_FSIZE: a status (the disk is full), no SIGXFSZ, no temporary file left. */
static void file_size_limit_gives_a_status(void **state) {
    rs_fixture *fx = *state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("TMPDIR", fx->dir, 1); /* the fallback lands here too, and fails too */
        struct rlimit lim = {8192, 8192};
        setrlimit(RLIMIT_FSIZE, &lim);
        sp_options opt = SP_OPTIONS_INIT;
        opt.file_path = fx->path;
        opt.compression = SP_COMPRESSION_NONE;
        if (sp_setup(&opt) != SP_OK) _exit(10);
        record_calls(20000); /* 320 kB of calls */
        sp_status st = sp_finalize(&quiet);
        _exit(st == SP_ERR_DISK_FULL ? 0 : 20 + (int)st);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status)) fail_msg("killed by signal %d", WTERMSIG(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(count_temporaries(fx->dir), 0);
    struct stat sb;
    assert_int_not_equal(stat(fx->path, &sb), 0);
}

/* Another process writes the target while this run records: both are kept. */
static void concurrent_run_is_kept(void **state) {
    rs_fixture *fx = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_calls(5);
    FILE *other = fopen(fx->path, "w"); /* the other run's profile */
    assert_non_null(other);
    fputs("the other run", other);
    fclose(other);
    rs_capture_stderr_begin();
    sp_status st = sp_finalize(&quiet);
    char *text = rs_capture_stderr_end();
    assert_int_equal(st, SP_OK);
    assert_non_null(strstr(text, "was written by another process during this run"));
    char buf[64] = "";
    FILE *f = fopen(fx->path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "the other run");
    char *ours = rs_path_in(fx->dir, "profile.2.h5");
    assert_string_equal(sp_output_path(), ours);
    sp_error err;
    sp_results *r = sp_read(ours, &err);
    assert_non_null(r);
    assert_int_equal(sp_mpi_region_num_calls(sp_results_get(r, "work", &err)), 5);
    sp_results_free(r);
    free(ours);
    free(text);

    /* a plain rerun (the file existed before sp_setup) replaces it, as always */
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_calls(7);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_string_equal(sp_output_path(), fx->path);
    r = sp_read(fx->path, &err);
    assert_non_null(r);
    assert_int_equal(sp_mpi_region_num_calls(sp_results_get(r, "work", &err)), 7);
    sp_results_free(r);
}

/* OMP_NUM_THREADS out of range: ignored (1, "no_openmp"), never an overflowed count. */
static void omp_num_threads_out_of_range(void **state) {
    rs_fixture *fx = *state;
    setenv("OMP_NUM_THREADS", "99999999999999999999", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_calls(3);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    unsetenv("OMP_NUM_THREADS");
    sp_error err;
    sp_results *r = sp_read(fx->path, &err);
    assert_non_null(r);
    sp_metadata_item threads, cores;
    assert_true(sp_results_metadata_find(r, "omp_num_threads", &threads));
    assert_true(sp_results_metadata_find(r, "total_cores", &cores));
    assert_int_equal(threads.int_value, 1);
    assert_true(cores.int_value >= 1);
    sp_results_free(r);
}

/* A pattern that hits PCRE2's match limit is an error naming it, not "no match". */
static void pattern_match_limit_is_an_error(void **state) {
    rs_fixture *fx = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    const char *names[] = {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "ab", "aab"};
    for (int i = 0; i < 3; i++) {
        sp_region_t h = sp_region(names[i]);
        sp_begin(h);
        sp_end(h);
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_error err;
    sp_results *r = sp_read(fx->path, &err);
    assert_non_null(r);
    const char *include[] = {"(?:(a+)+b|a+!)"};
    sp_filter filter = {.include = include, .num_include = 1};
    size_t count = 99;
    const sp_mpi_region **list = sp_results_get_regions(r, &filter, &count, &err);
    assert_null(list);
    assert_int_equal(err.status, SP_ERR_BAD_PATTERN);
    assert_non_null(strstr(err.message, "include pattern \"(?:(a+)+b|a+!)\" cannot be matched"));
    /* an ordinary pattern still works */
    const char *simple[] = {"a+b"};
    filter.include = simple;
    list = sp_results_get_regions(r, &filter, &count, &err);
    assert_non_null(list);
    assert_int_equal(count, 2);
    sp_region_list_free(list);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fifo_input_is_refused, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(file_size_limit_gives_a_status, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(concurrent_run_is_kept, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(omp_num_threads_out_of_range, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(pattern_match_limit_is_an_error, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
