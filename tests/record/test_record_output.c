/* Where a session writes (items 9.12, 9.13): SCOPE_PROFILER_OUTPUT naming a
 * directory, the placeholders %p %r %j %t %h %%, and a serial-library
 * program that a multi-process launcher started (one file per process,
 * its rank in the name and in /metadata, one warning). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "../support/h5_inspect.h"
#include "record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

static const char *const launcher_vars[] = {"OMPI_COMM_WORLD_SIZE",
                                            "OMPI_COMM_WORLD_RANK",
                                            "PMI_SIZE",
                                            "PMI_RANK",
                                            "PMIX_SIZE",
                                            "PMIX_RANK",
                                            "SLURM_NTASKS",
                                            "SLURM_STEP_NUM_TASKS",
                                            "SLURM_PROCID",
                                            "SLURM_JOB_ID",
                                            "PBS_JOBID",
                                            "LSB_JOBID"};

static void clear_env(void) {
    for (size_t i = 0; i < sizeof launcher_vars / sizeof *launcher_vars; i++)
        unsetenv(launcher_vars[i]);
    unsetenv("SCOPE_PROFILER_OUTPUT");
}

/* One session with one region, written where `output` (env) says; returns stderr. */
static char *record(const char *output) {
    setenv("SCOPE_PROFILER_OUTPUT", output, 1);
    rs_capture_stderr_begin();
    assert_int_equal(sp_setup(NULL), SP_OK);
    SP_REGION("work") {}
    sp_status st = sp_finalize(&quiet);
    char *err = rs_capture_stderr_end();
    assert_int_equal(st, SP_OK);
    unsetenv("SCOPE_PROFILER_OUTPUT");
    return err;
}

static int exists(const char *path) {
    return access(path, F_OK) == 0;
}

static void test_directory_means_default_name_inside(void **state) {
    rs_fixture *f = *state;
    clear_env();
    free(record(f->dir)); /* an existing directory, no trailing slash */
    char *inside = rs_path_in(f->dir, "profiling_data.h5");
    assert_true(exists(inside));
    assert_string_equal(sp_output_path(), inside);
    assert_int_equal(unlink(inside), 0);
    char with_slash[4096];
    snprintf(with_slash, sizeof with_slash, "%s/", f->dir);
    char *err = record(with_slash);
    assert_string_equal(err, "");
    free(err);
    assert_true(exists(inside));
    free(inside);
}

static void test_placeholders(void **state) {
    rs_fixture *f = *state;
    clear_env();
    setenv("SLURM_JOB_ID", "4242", 1);
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/run-%%j-%%p-%%r-%%h-%%t-%%%%-%%q.h5", f->dir);
    free(record(pattern));
    char host[256] = "";
    gethostname(host, sizeof host);
    host[strcspn(host, ".")] = '\0';
    char prefix[512];
    snprintf(prefix, sizeof prefix, "run-4242-%ld-0-%s-", (long)getpid(), host);
    /* the one file: prefix, then a UTC time like 20261201T103000Z, then "-%-%q.h5" */
    const char *name = strrchr(sp_output_path(), '/') + 1;
    assert_true(exists(sp_output_path()));
    assert_int_equal(strncmp(name, prefix, strlen(prefix)), 0);
    const char *t = name + strlen(prefix);
    assert_int_equal(strlen(t), strlen("20261201T103000Z-%-%q.h5"));
    assert_int_equal(t[8], 'T');
    assert_string_equal(t + 15, "Z-%-%q.h5");
    unlink(sp_output_path());

    /* PBS ids keep their number; LSF's as they are; no job: "nojob" */
    unsetenv("SLURM_JOB_ID");
    setenv("PBS_JOBID", "987.pbs-server", 1);
    snprintf(pattern, sizeof pattern, "%s/%%j.h5", f->dir);
    free(record(pattern));
    char *want = rs_path_in(f->dir, "987.h5");
    assert_string_equal(sp_output_path(), want);
    assert_true(exists(want));
    free(want);
    unsetenv("PBS_JOBID");
    setenv("LSB_JOBID", "55", 1);
    free(record(pattern));
    want = rs_path_in(f->dir, "55.h5");
    assert_true(exists(want));
    free(want);
    unsetenv("LSB_JOBID");
    free(record(pattern));
    want = rs_path_in(f->dir, "nojob.h5");
    assert_true(exists(want));
    free(want);
}

static int64_t mpi_rank_of(const char *path) {
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    int64_t rank = -1;
    if (h5i_attr_exists(file, "/metadata", "mpi_rank"))
        assert_int_equal(h5i_attr_int64(file, "/metadata", "mpi_rank", &rank), 0);
    H5Fclose(file);
    return rank;
}

/* Each launcher's variables: the file gets the rank in its name and metadata. */
static void check_launcher(const rs_fixture *f, const char *size_var, const char *rank_var,
                           const char *rank) {
    clear_env();
    if (size_var) setenv(size_var, "2", 1);
    setenv(rank_var, rank, 1);
    char *target = rs_path_in(f->dir, "job.h5");
    char *err = record(target);
    char name[64];
    snprintf(name, sizeof name, "job.rank%s.h5", rank);
    char *want = rs_path_in(f->dir, name);
    assert_string_equal(sp_output_path(), want);
    assert_true(exists(want));
    assert_false(exists(target));
    assert_int_equal(mpi_rank_of(want), atoi(rank));
    unlink(want);
    free(want);
    free(target);
    free(err);
}

static void test_launchers_give_per_process_files(void **state) {
    rs_fixture *f = *state;
    check_launcher(f, "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "1");
    check_launcher(f, "PMI_SIZE", "PMI_RANK", "1");
    check_launcher(f, NULL, "PMIX_RANK", "1");
    check_launcher(f, "SLURM_NTASKS", "SLURM_PROCID", "1");
    check_launcher(f, "SLURM_STEP_NUM_TASKS", "SLURM_PROCID", "0");

    /* %r in the name: the user placed the rank, nothing is added */
    clear_env();
    setenv("PMI_SIZE", "4", 1);
    setenv("PMI_RANK", "3", 1);
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/r%%r.h5", f->dir);
    free(record(pattern));
    char *want = rs_path_in(f->dir, "r3.h5");
    assert_string_equal(sp_output_path(), want);
    assert_int_equal(mpi_rank_of(want), 3);
    free(want);
    clear_env();
}

/* Rank 0 warns, once per process; other ranks stay quiet; one process: no warning. */
static void test_warning_once(void **state) {
    rs_fixture *f = *state;
    clear_env();
    char *target = rs_path_in(f->dir, "solo.h5");
    char *err = record(target);
    assert_string_equal(err, "");
    free(err);
    assert_int_equal(mpi_rank_of(target), -1); /* not launched: no mpi_rank */
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    setenv("OMPI_COMM_WORLD_RANK", "1", 1);
    err = record(target);
    assert_string_equal(err, "");
    free(err);
    setenv("OMPI_COMM_WORLD_RANK", "0", 1);
    err = record(target);
    char *want = rs_path_in(f->dir, "solo.rank0.h5");
    char expected[8192];
    snprintf(expected, sizeof expected,
             "scope-profiler: OMPI_COMM_WORLD_SIZE says this is one of 2 processes, but the "
             "program uses the serial library: each process writes its own file (%s for rank "
             "0); join them with scope-profiler merge, or link libscope_profiler_mpi and call "
             "sp_mpi_setup() for one file\n",
             want);
    assert_string_equal(err, expected);
    free(err);
    err = record(target); /* a second session of the same process */
    assert_string_equal(err, "");
    free(err);
    free(want);
    free(target);
    clear_env();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        /* first: the warning comes once per process */
        cmocka_unit_test_setup_teardown(test_warning_once, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_directory_means_default_name_inside, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_placeholders, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_launchers_give_per_process_files, rs_setup_dir,
                                        rs_teardown_dir),
    };
    clear_env();
    unsetenv("SCOPE_PROFILER_QUIET");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
