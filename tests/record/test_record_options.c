/* Recording: options and environment overrides, metadata detail, the
 * compression policy, source capture and the clock conversion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "../support/h5_inspect.h"
#include "record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

typedef rs_fixture fixture;

static int teardown_dir(void **state) {
    static const char *const vars[] = {"SCOPE_PROFILER_OUTPUT",
                                       "SCOPE_PROFILER_DISABLE",
                                       "SCOPE_PROFILER_LABEL",
                                       "SCOPE_PROFILER_METADATA",
                                       "SCOPE_PROFILER_CAPTURE_SOURCE",
                                       "SCOPE_PROFILER_COMPRESSION",
                                       "SCOPE_PROFILER_CLOCK",
                                       "LOADEDMODULES",
                                       "SLURM_JOB_ID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    return rs_teardown_dir(state);
}

static void record_some(int n) {
    sp_region_t h = sp_region("work");
    for (int i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
}

static void test_disable_option_writes_nothing(void **state) {
    fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.disable = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    assert_false(sp_is_active());
    record_some(10);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(access(f->path, F_OK), -1);
}

static void test_disable_environment_overrides(void **state) {
    fixture *f = *state;
    setenv("SCOPE_PROFILER_DISABLE", "yes", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(10);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(access(f->path, F_OK), -1);
    /* and "0" switches a disabled program on */
    setenv("SCOPE_PROFILER_DISABLE", "0", 1);
    opt.disable = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(10);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(access(f->path, F_OK), 0);
}

static void test_output_and_label_environment(void **state) {
    fixture *f = *state;
    char *redirected = rs_path_in(f->dir, "from_env.h5");
    setenv("SCOPE_PROFILER_OUTPUT", redirected, 1);
    setenv("SCOPE_PROFILER_LABEL", "job 42", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.label = "from code";
    assert_int_equal(sp_setup(&opt), SP_OK);
    assert_string_equal(sp_output_path(), redirected);
    record_some(3);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(access(f->path, F_OK), -1);
    hid_t file = H5Fopen(redirected, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    char *label = h5i_attr_string(file, "/metadata", "label");
    assert_string_equal(label, "job 42");
    free(label);
    H5Fclose(file);
    free(redirected);
}

static void test_malformed_environment_is_reported_and_ignored(void **state) {
    fixture *f = *state;
    setenv("SCOPE_PROFILER_METADATA", "everything", 1);
    setenv("SCOPE_PROFILER_COMPRESSION", "zstd", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    rs_capture_stderr_begin();
    assert_int_equal(sp_setup(&opt), SP_OK);
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "ignoring SCOPE_PROFILER_METADATA=\"everything\": expected "
                                "minimal or full"));
    assert_non_null(strstr(err, "ignoring SCOPE_PROFILER_COMPRESSION=\"zstd\": expected auto, "
                                "none, gzip or gzip:0 to gzip:9"));
    free(err);
    record_some(1);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
}

static void test_default_path(void **state) {
    fixture *f = *state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(f->dir), 0);
    assert_int_equal(sp_setup(NULL), SP_OK);
    record_some(1);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(access("profiling_data.h5", F_OK), 0);
    assert_int_equal(chdir(cwd), 0);
}

static void test_invalid_options(void **state) {
    (void)state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.compression = SP_COMPRESSION_GZIP;
    opt.compression_level = 12;
    assert_int_equal(sp_setup(&opt), SP_ERR_INVALID_ARGUMENT);
    opt.compression_level = 4;
    opt.metadata_detail = (sp_metadata_detail)7;
    assert_int_equal(sp_setup(&opt), SP_ERR_INVALID_ARGUMENT);
    assert_false(sp_is_active());
}

static void test_full_metadata(void **state) {
    fixture *f = *state;
    setenv("LOADEDMODULES", "gcc/12:openmpi/4.1:hdf5/1.10", 1);
    setenv("SLURM_JOB_ID", "123456", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.metadata_detail = SP_METADATA_FULL;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(1);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    hid_t file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    static const char *const keys[] = {"user",    "hostname", "uname",         "working_directory",
                                       "modules", "PATH",     "LOADEDMODULES", "SLURM_JOB_ID"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        assert_true(h5i_attr_exists(file, "/metadata", keys[i]));
    char *job = h5i_attr_string(file, "/metadata", "SLURM_JOB_ID");
    assert_string_equal(job, "123456");
    free(job);
    /* modules: a 1-D string array split on ':' */
    hid_t a = H5Aopen_by_name(file, "/metadata", "modules", H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Aget_space(a);
    assert_int_equal(H5Sget_simple_extent_npoints(space), 3);
    H5Sclose(space);
    H5Aclose(a);
    H5Fclose(file);
}

/* omp_num_threads and total_cores say what is true (item 9.14): this program
 * has no OpenMP runtime, so 1 thread unless OMP_NUM_THREADS says otherwise;
 * total_cores is the machine's online CPUs, whatever the counts. */
static void expect_counts(const char *path, int64_t threads, const char *source) {
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    int64_t v = 0;
    assert_int_equal(h5i_attr_int64(file, "/metadata", "omp_num_threads", &v), 0);
    assert_int_equal(v, threads);
    char *s = h5i_attr_string(file, "/metadata", "omp_num_threads_source");
    assert_string_equal(s, source);
    free(s);
    assert_int_equal(h5i_attr_int64(file, "/metadata", "total_cores", &v), 0);
    assert_int_equal(v, sysconf(_SC_NPROCESSORS_ONLN));
    s = h5i_attr_string(file, "/metadata", "total_cores_source");
    assert_string_equal(s, "online_cpus");
    free(s);
    H5Fclose(file);
}

static void test_thread_and_core_counts(void **state) {
    fixture *f = *state;
    char *saved = getenv("OMP_NUM_THREADS") ? strdup(getenv("OMP_NUM_THREADS")) : NULL;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    unsetenv("OMP_NUM_THREADS");
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(3);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    expect_counts(f->path, 1, "no_openmp");
    setenv("OMP_NUM_THREADS", "3,2", 1); /* nested levels: the first one */
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(3);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    expect_counts(f->path, 3, "OMP_NUM_THREADS");
    if (saved)
        setenv("OMP_NUM_THREADS", saved, 1);
    else
        unsetenv("OMP_NUM_THREADS");
    free(saved);
}

/* Layout per FORMAT.md 2.2: contiguous up to 64 KiB, gzip+shuffle from 16384 calls. */
static void expect_storage(const char *path, H5D_layout_t layout, int compressed) {
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    static const char *const columns[] = {"/events/durations", "/events/start_deltas"};
    for (int i = 0; i < 2; i++) {
        H5D_layout_t l;
        int deflate, shuffle;
        assert_int_equal(h5i_dataset_storage(file, columns[i], &l, &deflate, &shuffle), 0);
        assert_int_equal(l, layout);
        assert_int_equal(deflate, compressed);
        assert_int_equal(shuffle, compressed);
    }
    H5Fclose(file);
}

static void run_with(const fixture *f, int calls, const char *compression_env) {
    if (compression_env) setenv("SCOPE_PROFILER_COMPRESSION", compression_env, 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_some(calls);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    unsetenv("SCOPE_PROFILER_COMPRESSION");
}

static void test_compression_policy(void **state) {
    fixture *f = *state;
    run_with(f, 100, NULL);
    expect_storage(f->path, H5D_CONTIGUOUS, 0);
    /* the session root is one call more */
    run_with(f, 16382, NULL); /* 128 KiB: chunked, still below the threshold */
    expect_storage(f->path, H5D_CHUNKED, 0);
    run_with(f, 16383, NULL);
    expect_storage(f->path, H5D_CHUNKED, 1);
    run_with(f, 20000, "none");
    expect_storage(f->path, H5D_CHUNKED, 0);
    run_with(f, 20000, "gzip:1");
    expect_storage(f->path, H5D_CHUNKED, 1);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "work"), 20000);
    rs_profile_free(&p);
}

/* Writes a small source file for the capture tests. */
static void write_text(const char *path, const char *text) {
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    assert_int_not_equal(fputs(text, out), EOF);
    assert_int_equal(fclose(out), 0);
}

/* Source capture: the block of SP_REGION, the function of SP_PROFILE. */
static int captured_helper(int x) {
    SP_PROFILE("captured_function");
    return x * 2;
}

static void test_source_capture(void **state) {
    fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.capture_region_source = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    int y = 0;
    SP_REGION("captured_block") {
        y += captured_helper(3);
    }
    sp_region_t manual = sp_region("captured_manual");
    sp_begin(manual);
    sp_end(manual);
    assert_int_equal(y, 6);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    long b = rs_row_of(&p, "captured_block");
    assert_string_equal(p.source_texts[b], "    SP_REGION(\"captured_block\") {\n"
                                           "        y += captured_helper(3);\n"
                                           "    }");
    long fn = rs_row_of(&p, "captured_function");
    assert_string_equal(p.source_texts[fn], "static int captured_helper(int x) {\n"
                                            "    SP_PROFILE(\"captured_function\");\n"
                                            "    return x * 2;\n"
                                            "}");
    long m = rs_row_of(&p, "captured_manual");
    assert_string_equal(p.source_texts[m],
                        "    sp_region_t manual = sp_region(\"captured_manual\");");
    rs_profile_free(&p);
}

/* SP_PROFILE_FUNCTION in a file whose first line is an #include right above
 * the function: the text starts at the function's line, not at line 1. */
static void test_source_capture_function_after_first_line(void **state) {
    fixture *f = *state;
    char *src = rs_path_in(f->dir, "first.c");
    write_text(src, "#include <scope_profiler.h>\n"
                    "static int work(int n) {\n"
                    "    SP_PROFILE_FUNCTION();\n"
                    "    return n + 1;\n"
                    "}\n");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.capture_region_source = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region_at("first_line_function", src, 3);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_string_equal(p.source_texts[rs_row_of(&p, "first_line_function")],
                        "static int work(int n) {\n"
                        "    SP_PROFILE_FUNCTION();\n"
                        "    return n + 1;\n"
                        "}");
    rs_profile_free(&p);
    free(src);
}

static void test_source_capture_missing_file(void **state) {
    fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.capture_region_source = 1;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region_at("nowhere", "/no/such/source.c", 12);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    long r = rs_row_of(&p, "nowhere");
    assert_string_equal(p.source_texts[r], "");
    assert_string_equal(p.source_files[r], "/no/such/source.c");
    assert_int_equal(p.source_lines[r], 12);
    rs_profile_free(&p);
}

/* A relative __FILE__ (a build that compiled "src/rel.c" from its top
 * directory), a run that changes directory after sp_setup: the file is found
 * against the working directory at sp_setup; stored relative to it at
 * minimal metadata, absolute at full. A relative file found nowhere is named
 * on stderr with the places looked in. */
static void record_relative_sources(const fixture *f, sp_metadata_detail detail, char **err) {
    char *run_dir = rs_path_in(f->dir, "run");
    char *src_dir = rs_path_in(f->dir, "run/src");
    assert_int_equal(mkdir(run_dir, 0700), 0);
    assert_int_equal(mkdir(src_dir, 0700), 0);
    char *src = rs_path_in(f->dir, "run/src/rel.c");
    write_text(src, "int a;\nint solve(void) { return 1; }\n");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(run_dir), 0);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.capture_region_source = 1;
    opt.metadata_detail = detail;
    assert_int_equal(sp_setup(&opt), SP_OK);
    assert_int_equal(chdir(f->dir), 0); /* the program moves on */
    sp_region_t rel = sp_region_at("relative", "src/rel.c", 2);
    sp_region_t gone = sp_region_at("gone", "lib/gone.c", 3);
    sp_begin(rel);
    sp_end(rel);
    sp_begin(gone);
    sp_end(gone);
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    *err = rs_capture_stderr_end();
    assert_int_equal(chdir(cwd), 0);
    free(src);
    free(src_dir);
    free(run_dir);
}

static void test_source_relative_path_minimal(void **state) {
    fixture *f = *state;
    char *err;
    record_relative_sources(f, SP_METADATA_MINIMAL, &err);
    char *run_dir = rs_path_in(f->dir, "run");
    char want[8192];
    snprintf(want, sizeof want,
             "scope-profiler: source of 1 region(s) not captured: lib/gone.c is relative to the "
             "compile directory and is not under %s (the working directory at sp_setup) or ",
             run_dir);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "run from the compile directory, or compile with absolute"));
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    long r = rs_row_of(&p, "relative");
    assert_string_equal(p.source_texts[r], "int solve(void) { return 1; }");
    assert_string_equal(p.source_files[r], "src/rel.c");
    long g = rs_row_of(&p, "gone");
    assert_string_equal(p.source_texts[g], "");
    assert_string_equal(p.source_files[g], "lib/gone.c");
    rs_profile_free(&p);
    free(run_dir);
    free(err);
}

static void test_source_relative_path_full(void **state) {
    fixture *f = *state;
    char *err;
    record_relative_sources(f, SP_METADATA_FULL, &err);
    char *real_dir = realpath(f->dir, NULL);
    assert_non_null(real_dir);
    char want[8192];
    snprintf(want, sizeof want, "%s/run/src/rel.c", real_dir);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    long r = rs_row_of(&p, "relative");
    assert_string_equal(p.source_texts[r], "int solve(void) { return 1; }");
    assert_string_equal(p.source_files[r], want);
    rs_profile_free(&p);
    free(real_dir);
    free(err);
}

/* At minimal metadata a file outside the working directory is stored as
 * Python's os.path.relpath gives it ("../src/x.c"). */
static void test_source_path_outside_working_directory(void **state) {
    fixture *f = *state;
    char *real_dir = realpath(f->dir, NULL);
    assert_non_null(real_dir);
    char *run_dir = rs_path_in(real_dir, "run");
    char *src_dir = rs_path_in(real_dir, "src");
    char *src = rs_path_in(real_dir, "src/x.c");
    assert_int_equal(mkdir(run_dir, 0700), 0);
    assert_int_equal(mkdir(src_dir, 0700), 0);
    write_text(src, "x\n");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(run_dir), 0);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region_at("outside", src, 1);
    sp_begin(h);
    sp_end(h);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    assert_int_equal(chdir(cwd), 0);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_string_equal(p.source_files[rs_row_of(&p, "outside")], "../src/x.c");
    assert_string_equal(p.source_texts[rs_row_of(&p, "outside")], ""); /* capture was off */
    rs_profile_free(&p);
    free(src);
    free(src_dir);
    free(run_dir);
    free(real_dir);
}

/* Stored timestamps land on CLOCK_MONOTONIC's timeline, whichever counter is read. */
static void check_clock(const fixture *f, const char *clock) {
    setenv("SCOPE_PROFILER_CLOCK", clock, 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    enum { N = 200 };
    int64_t before[N], middle[N], after[N];
    sp_region_t h = sp_region("timed");
    for (int i = 0; i < N; i++) {
        before[i] = rs_now_ns();
        sp_begin(h);
        middle[i] = rs_now_ns();
        rs_busy_wait_ns(20000 + 1000 * i);
        sp_end(h);
        after[i] = rs_now_ns();
    }
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    unsetenv("SCOPE_PROFILER_CLOCK");
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(p.num_events, N + 1); /* and the session root */
    long timed = rs_row_of(&p, "timed");
    assert_int_equal(p.counts[timed], N);
    const int64_t tolerance = 2000; /* ns: calibration and read jitter */
    for (int i = 0; i < N; i++) {
        int64_t e = p.offsets[timed] + i;
        int64_t start = p.starts[e], end = p.starts[e] + p.durations[e];
        assert_true(start >= before[i] - tolerance);
        assert_true(start <= middle[i] + tolerance);
        assert_true(end >= middle[i] + 20000 + 1000 * i - tolerance);
        assert_true(end <= after[i] + tolerance);
    }
    rs_profile_free(&p);
    hid_t file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char *source = h5i_attr_string(file, "/metadata", "clock_source");
    const char *why;
    (void)why;
    if (strcmp(clock, "monotonic") == 0) assert_string_equal(source, "monotonic");
    free(source);
    H5Fclose(file);
}

static void test_clock_monotonic(void **state) {
    check_clock(*state, "monotonic");
}
static void test_clock_tsc(void **state) {
    check_clock(*state, "tsc");
}
static void test_clock_auto(void **state) {
    check_clock(*state, "auto");
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, rs_setup_dir, teardown_dir)
    const struct CMUnitTest tests[] = {
        T(test_disable_option_writes_nothing),
        T(test_disable_environment_overrides),
        T(test_output_and_label_environment),
        T(test_malformed_environment_is_reported_and_ignored),
        T(test_default_path),
        T(test_invalid_options),
        T(test_full_metadata),
        T(test_compression_policy),
        T(test_source_capture),
        T(test_source_capture_function_after_first_line),
        T(test_thread_and_core_counts),
        T(test_source_capture_missing_file),
        T(test_source_relative_path_minimal),
        T(test_source_relative_path_full),
        T(test_source_path_outside_working_directory),
        T(test_clock_monotonic),
        T(test_clock_tsc),
        T(test_clock_auto),
    };
#undef T
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
