/*
 * Every way a read can fail, one status each, on files built with the HDF5
 * API: a valid profile from the writer, then damaged in one precise way.
 * Each failure must come with a one-line message that starts with the path,
 * leave no HDF5 object open and print nothing on stderr.
 */
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "format/reader.h"
#include "format_support.h"

#define INDEX "/rank_region_index/"

/* fs_basic_model(): rows (rank, region, count) = (0,1,3) (0,2,2) (1,1,3) (1,0,1). */
static const char *basic(const char *name) {
    const char *path = fs_path(name);
    fs_write_basic(path);
    return path;
}

/* The basic profile rewritten as schema 2 with the given end times. */
static const char *basic_schema2(const char *name, const int64_t *ends) {
    const char *path = basic(name);
    sp_model m;
    fs_basic_model(&m);
    fs_replace_ints(path, "/events/start_times", H5T_STD_I64LE, m.starts, m.num_events);
    fs_replace_ints(path, "/events/end_times", H5T_STD_I64LE, ends, m.num_events);
    fs_delete(path, "/events/start_deltas");
    fs_delete(path, "/events/durations");
    fs_set_attr_int(path, "/", "scope_profiler_schema", 2);
    sp_model_clear(&m);
    return path;
}

/* --- reaching the file ---------------------------------------------------- */

static void test_no_such_file(void **state) {
    (void)state;
    const char *path = fs_path("missing.h5");
    fs_expect_error(path, SP_ERR_NO_SUCH_FILE, NULL);
    sp_error err;
    sp_model m;
    sp_read_model(path, &m, &err);
    char expected[600];
    snprintf(expected, sizeof expected, "%s: no such file", path);
    assert_string_equal(err.message, expected);
    char below_file[600];
    snprintf(below_file, sizeof below_file, "%s/inside.h5", basic("plain.h5"));
    fs_expect_error(below_file, SP_ERR_NO_SUCH_FILE, "no such file");
}

/* 0 when reading path fails with SP_ERR_PERMISSION and says so. */
static int denied(const char *path) {
    sp_model m;
    sp_error err;
    return !(sp_read_model(path, &m, &err) == SP_ERR_PERMISSION &&
             strstr(err.message, "permission denied") &&
             strncmp(err.message, path, strlen(path)) == 0);
}

static void test_permission_denied(void **state) {
    (void)state;
    if (geteuid() != 0) {
        const char *path = basic("secret.h5");
        assert_int_equal(chmod(path, 0), 0);
        fs_expect_error(path, SP_ERR_PERMISSION, "permission denied");
        chmod(path, 0600);
        return;
    }
    /* Root reads everything: check as "nobody" in a child process. A file
     * in a directory nobody may search fails in stat(), an unreadable file
     * in a searchable one fails in open(). */
    char dir[] = "/tmp/sp_perm_XXXXXX", closed[64], unreadable[64], hidden[80];
    assert_non_null(mkdtemp(dir));
    snprintf(closed, sizeof closed, "%s/closed", dir);
    snprintf(unreadable, sizeof unreadable, "%s/unreadable.h5", dir);
    snprintf(hidden, sizeof hidden, "%s/hidden.h5", closed);
    assert_int_equal(mkdir(closed, 0700), 0);
    fs_write_basic(unreadable);
    fs_write_basic(hidden);
    assert_int_equal(chmod(dir, 0711), 0);
    assert_int_equal(chmod(unreadable, 0600), 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
        _exit(denied(unreadable) * 1 + denied(hidden) * 2);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    unlink(unreadable);
    unlink(hidden);
    rmdir(closed);
    rmdir(dir);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 99) skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_directory(void **state) {
    (void)state;
    const char *path = fs_path("a_directory.h5");
    assert_int_equal(mkdir(path, 0700), 0);
    fs_expect_error(path, SP_ERR_IO, "is a directory");
    rmdir(path);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A file another program is still writing: HDF5's lock, not damage. */
static void test_locked_by_writer(void **state) {
    (void)state;
    const char *path = basic("being_written.h5");
    pid_t pid = fork();
    if (pid == 0) { /* the writer: holds the file open read-write until killed */
        hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
        if (f < 0) _exit(1);
        pause();
        _exit(0);
    }
    usleep(300000);
    hid_t probe = -1;
    H5E_BEGIN_TRY {
        probe = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    }
    H5E_END_TRY;
    if (probe >= 0) { /* file locking disabled here (HDF5_USE_FILE_LOCKING=FALSE) */
        H5Fclose(probe);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        skip();
    }
    fs_expect_error(path, SP_ERR_IO, "locked by another process");
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_not_hdf5(void **state) {
    (void)state;
    const char *path = fs_path("notes.txt");
    write_text(path, "timestep 0.1 s\nsolve 0.2 s\n");
    fs_expect_error(path, SP_ERR_NOT_HDF5, "not an HDF5 file");
    path = fs_path("zero_bytes.h5");
    write_text(path, "");
    fs_expect_error(path, SP_ERR_NOT_HDF5, "not an HDF5 file");
}

static void test_truncated(void **state) {
    (void)state;
    const char *path = basic("truncated.h5");
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(truncate(path, sb.st_size / 2), 0);
    fs_expect_error(path, SP_ERR_DAMAGED, "HDF5 cannot open it");
}

/* --- what kind of file ------------------------------------------------------ */

static void test_not_a_profile(void **state) {
    (void)state;
    const char *path = fs_path("empty.h5");
    fs_write_empty_hdf5(path);
    fs_expect_error(path, SP_ERR_NOT_A_PROFILE,
                    "no /rank_region_index or rank<N> groups: not a scope-profiler profile");
    /* Groups that only look like ranks do not make a legacy profile. */
    fs_make_group(path, "/rank01/regions/x");
    fs_make_group(path, "/rankX/regions/x");
    fs_make_group(path, "/rank-1/regions/x");
    fs_make_group(path, "/rank99999999999/regions/x");
    int64_t data[] = {1, 2, 3};
    fs_replace_ints(path, "/data/values", H5T_STD_I64LE, data, 3);
    fs_expect_error(path, SP_ERR_NOT_A_PROFILE, "not a scope-profiler profile");
}

static void test_schema_too_new(void **state) {
    (void)state;
    const char *path = basic("schema4.h5");
    fs_set_attr_int(path, "/", "scope_profiler_schema", 4);
    fs_expect_error(path, SP_ERR_SCHEMA_TOO_NEW, "schema 4; this version reads schemas up to 3");
    fs_set_attr_int(path, "/", "scope_profiler_schema", INT64_MAX);
    fs_expect_error(path, SP_ERR_SCHEMA_TOO_NEW, "schema 9223372036854775807");
    path = basic("layout.h5");
    fs_set_attr_string(path, "/", "storage_layout", "sparse");
    fs_expect_error(path, SP_ERR_SCHEMA_TOO_NEW, "unknown storage_layout \"sparse\"");
}

static void test_bad_schema_attribute(void **state) {
    (void)state;
    const char *path = basic("schema_string.h5");
    fs_set_attr_string(path, "/", "scope_profiler_schema", "3");
    fs_expect_error(path, SP_ERR_BAD_DATASET, "scope_profiler_schema is not an integer");
    path = basic("schema0.h5");
    fs_set_attr_int(path, "/", "scope_profiler_schema", 0);
    fs_expect_error(path, SP_ERR_DAMAGED, "scope_profiler_schema is 0");
    path = basic("layout_int.h5");
    fs_set_attr_int(path, "/", "storage_layout", 1);
    fs_expect_error(path, SP_ERR_BAD_DATASET, "storage_layout is not a string");
}

/* --- wrong types and shapes -------------------------------------------------- */

static void test_float_durations(void **state) {
    (void)state;
    const char *path = basic("float.h5");
    double d[9] = {0};
    fs_replace_doubles(path, "/events/durations", d, 9);
    sp_error err;
    sp_model m;
    assert_int_equal(sp_read_model(path, &m, &err), SP_ERR_BAD_DATASET);
    char expected[700];
    snprintf(expected, sizeof expected,
             "%s: /events/durations has type float64, expected an integer dataset", path);
    assert_string_equal(err.message, expected);
    fs_expect_error(path, SP_ERR_BAD_DATASET, NULL);
}

static void test_two_dimensional(void **state) {
    (void)state;
    const char *path = basic("2d.h5");
    fs_replace_2d(path, "/events/durations", 9, 2);
    fs_expect_error(path, SP_ERR_BAD_DATASET,
                    "/events/durations has 2 dimensions, expected a 1-D dataset");
    fs_replace_scalar(path, "/events/durations");
    fs_expect_error(path, SP_ERR_BAD_DATASET, "/events/durations is a scalar");
}

static void test_string_where_integer(void **state) {
    (void)state;
    const char *path = basic("string_ids.h5");
    const char *ids[] = {"1", "2", "1", "0"};
    fs_replace_strings(path, INDEX "region_ids", ids, 4);
    fs_expect_error(path, SP_ERR_BAD_DATASET,
                    INDEX "region_ids has type string, expected an integer dataset");
}

static void test_integer_where_string(void **state) {
    (void)state;
    const char *path = basic("int_names.h5");
    int64_t names[] = {1, 2, 3};
    fs_replace_ints(path, "/region_table/names", H5T_STD_I32BE, names, 3);
    fs_expect_error(path, SP_ERR_BAD_DATASET,
                    "/region_table/names has type int32, expected a string dataset");
}

static void test_group_where_dataset(void **state) {
    (void)state;
    const char *path = basic("group.h5");
    fs_delete(path, "/events/durations");
    fs_make_group(path, "/events/durations");
    fs_expect_error(path, SP_ERR_BAD_DATASET, "/events/durations is a group");
}

static void test_bad_summary_statistics(void **state) {
    (void)state;
    const char *path = basic("stats_int.h5");
    int64_t v[] = {1, 2, 3, 4};
    fs_replace_ints(path, INDEX "summary_statistics", H5T_STD_I64LE, v, 4);
    fs_expect_error(path, SP_ERR_BAD_DATASET, "expected a compound dataset");
}

/* --- damaged index and columns --------------------------------------------- */

static void test_missing_dataset(void **state) {
    (void)state;
    static const char *const required[] = {
        "/events/durations",   "/events/start_deltas", INDEX "region_ids",   INDEX "ranks",
        INDEX "event_offsets", INDEX "event_counts",   "/region_table/names"};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        const char *path = basic("missing_dataset.h5");
        fs_delete(path, required[i]);
        char needle[200];
        snprintf(needle, sizeof needle, "%s is missing", required[i]);
        fs_expect_error(path, SP_ERR_DAMAGED, needle);
    }
    const char *path = basic("missing_index.h5");
    fs_delete(path, "/rank_region_index");
    fs_expect_error(path, SP_ERR_DAMAGED, "/rank_region_index is missing");
}

static void test_offsets_past_end(void **state) {
    (void)state;
    const char *path = basic("past_end.h5");
    int64_t offsets[] = {0, 3, 5, 100};
    fs_replace_ints(path, INDEX "event_offsets", H5T_STD_U64LE, offsets, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "row 3 starts at event 100");
    int64_t counts[] = {3, 2, 3, INT64_MAX};
    int64_t good_offsets[] = {0, 3, 5, 8};
    fs_replace_ints(path, INDEX "event_offsets", H5T_STD_U64LE, good_offsets, 4);
    fs_replace_ints(path, INDEX "event_counts", H5T_STD_U64LE, counts, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "but the event columns hold 9");
}

static void test_overlapping_rows(void **state) {
    (void)state;
    const char *path = basic("overlap.h5");
    int64_t offsets[] = {0, 2, 5, 8};
    fs_replace_ints(path, INDEX "event_offsets", H5T_STD_U64LE, offsets, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "overlapping or gapped rows");
}

static void test_counts_disagree(void **state) {
    (void)state;
    const char *path = basic("counts.h5");
    int64_t counts[] = {3, 2, 3, 0};
    fs_replace_ints(path, INDEX "event_counts", H5T_STD_U64LE, counts, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "the rows cover 8 events but the event columns hold 9");
    path = basic("short_events.h5");
    int64_t durations[8] = {0};
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, durations, 8);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "/events/durations has 8 rows but /events/start_deltas has 9");
}

static void test_column_lengths_disagree(void **state) {
    (void)state;
    const char *path = basic("short_ranks.h5");
    int64_t ranks[] = {0, 0, 1};
    fs_replace_ints(path, INDEX "ranks", H5T_STD_U32LE, ranks, 3);
    fs_expect_error(path, SP_ERR_DAMAGED, INDEX "ranks has 3 rows but " INDEX "region_ids has 4");
    path = basic("short_tags.h5");
    const char *tags[] = {"[]"};
    fs_replace_strings(path, INDEX "tags", tags, 1);
    fs_expect_error(path, SP_ERR_DAMAGED, INDEX "tags has 1 rows");
}

static void test_negative_durations(void **state) {
    (void)state;
    const char *path = basic("negative.h5");
    int64_t durations[] = {100, 200, 300, 50, -5, 400, 0, 500, 10};
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, durations, 9);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "call 1 of region \"io\" on rank 0 has a negative duration (-5 ns)");
}

/* Names come from the file: a newline in one must not break the message's line. */
static void test_message_stays_one_line(void **state) {
    (void)state;
    const char *path = basic("newline.h5");
    const char *names[] = {"setup", "solve", "naïve\n2\t\x01"};
    fs_replace_strings(path, "/region_table/names", names, 3);
    int64_t durations[] = {100, 200, 300, 50, -5, 400, 0, 500, 10};
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, durations, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "region \"naïve\\n2\\t\\x01\" on rank 0");
}

static void test_schema2_end_before_start(void **state) {
    (void)state;
    int64_t ends[] = {1100, 5200, 9300, 1150, 5160, 2400, 6000, 6999, 2110};
    const char *path = basic_schema2("schema2_bad.h5", ends);
    fs_expect_error(path, SP_ERR_DAMAGED, "ends before it starts");
    int64_t good[] = {1100, 5200, 9300, 1150, 5160, 2400, 6000, 7500, 2110};
    path = basic_schema2("schema2_good.h5", good);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.schema, 2);
    assert_int_equal(m.durations[7], 500);
    assert_int_equal(m.starts[7], 7000);
    sp_model_clear(&m);
}

static void test_times_out_of_range(void **state) {
    (void)state;
    const char *path = basic("start_overflow.h5");
    int64_t deltas[] = {INT64_MAX, 10, 0, 1100, 4000, 2000, 4000, 1000, 2100};
    fs_replace_ints(path, "/events/start_deltas", H5T_STD_I64LE, deltas, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "starts past the int64 range");
    int64_t negative[] = {-5, 4000, 4000, 1100, 4000, 2000, 4000, 1000, 2100};
    fs_replace_ints(path, "/events/start_deltas", H5T_STD_I64LE, negative, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "starts at a negative time (-5 ns)");
    int64_t late[] = {INT64_MAX - 150, 10, 10, 1100, 4000, 2000, 4000, 1000, 2100};
    fs_replace_ints(path, "/events/start_deltas", H5T_STD_I64LE, late, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "ends past the int64 range");
    int64_t zero[] = {0, 0, 0, 1100, 4000, 2000, 4000, 1000, 2100};
    int64_t huge[] = {INT64_MAX, INT64_MAX, 1, 50, 60, 400, 0, 500, 10};
    fs_replace_ints(path, "/events/start_deltas", H5T_STD_I64LE, zero, 9);
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, huge, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "makes the row's total overflow int64");
}

static void test_bad_region_ids_and_ranks(void **state) {
    (void)state;
    const char *path = basic("region_range.h5");
    int64_t ids[] = {1, 2, 1, 3};
    fs_replace_ints(path, INDEX "region_ids", H5T_STD_U32LE, ids, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "row 3 names region id 3");
    int64_t negative_ids[] = {1, 2, -1, 0};
    fs_replace_ints(path, INDEX "region_ids", H5T_STD_I64LE, negative_ids, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "row 2 of " INDEX "region_ids holds -1");
    path = basic("rank_range.h5");
    int64_t ranks[] = {0, 0, 1, (int64_t)UINT32_MAX + 1};
    fs_replace_ints(path, INDEX "ranks", H5T_STD_I64LE, ranks, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "row 3 of " INDEX "ranks holds 4294967296");
}

static void test_duplicate_and_scattered_rows(void **state) {
    (void)state;
    const char *path = basic("duplicate.h5");
    int64_t ids[] = {1, 1, 1, 0};
    fs_replace_ints(path, INDEX "region_ids", H5T_STD_U32LE, ids, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "two rows for rank 0 and region id 1");
    path = basic("scattered.h5");
    int64_t ranks[] = {0, 1, 1, 0};
    fs_replace_ints(path, INDEX "ranks", H5T_STD_U32LE, ranks, 4);
    fs_expect_error(path, SP_ERR_DAMAGED, "rows of rank 0 are not consecutive");
    path = basic("duplicate_names.h5");
    const char *names[] = {"setup", "solve", "setup"};
    fs_replace_strings(path, "/region_table/names", names, 3);
    fs_expect_error(path, SP_ERR_DAMAGED, "\"setup\" appears twice");
}

static void test_bad_thread_ids(void **state) {
    (void)state;
    const char *path = basic("threads.h5");
    int64_t ids[10] = {0, 0, 0, 0, 0, 0, 0, -2, 0, 0};
    fs_replace_ints(path, "/events/thread_ids", H5T_STD_I64LE, ids, 9);
    fs_expect_error(path, SP_ERR_DAMAGED, "/events/thread_ids[7] is -2");
    fs_replace_ints(path, "/events/thread_ids", H5T_STD_I64LE, ids, 5);
    fs_expect_error(path, SP_ERR_DAMAGED, "/events/thread_ids has 5 rows");
    fs_replace_ints(path, "/events/thread_ids", H5T_STD_I64LE, ids, 9);
    fs_replace_ints(path, "/events/call_ids", H5T_STD_I64LE, ids, 10);
    fs_expect_error(path, SP_ERR_DAMAGED, "/events/call_ids has 10 rows");
}

static void write_offsets(const char *path, const int64_t *ranks, const int64_t *offsets,
                          size_t n) {
    int64_t zeros[4] = {0};
    fs_replace_ints(path, "/scope_profiler_c/clock_offsets/ranks", H5T_STD_U32LE, ranks, n);
    fs_replace_ints(path, "/scope_profiler_c/clock_offsets/offset_ns", H5T_STD_I64LE, offsets, n);
    fs_replace_ints(path, "/scope_profiler_c/clock_offsets/uncertainty_ns", H5T_STD_I64LE, zeros,
                    n);
}

/* Readers add a rank's offset to its times: it must fit, once per rank. */
static void test_bad_clock_offsets(void **state) {
    (void)state;
    const char *path = basic("offsets.h5");
    int64_t ranks[] = {0, 1}, fine[] = {0, -2000}, huge[] = {0, INT64_MAX - 5000};
    write_offsets(path, ranks, fine, 2);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_clock_offsets, 2);
    sp_model_clear(&m);
    write_offsets(path, ranks, huge, 2);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "the clock offset of rank 1 (9223372036854770807 ns) would move its times "
                    "out of the int64 range");
    int64_t same[] = {1, 1};
    write_offsets(path, same, fine, 2);
    fs_expect_error(path, SP_ERR_DAMAGED, "two clock offsets for rank 1");
    write_offsets(path, ranks, fine, 2);
    fs_delete(path, "/scope_profiler_c/clock_offsets/uncertainty_ns");
    fs_expect_error(path, SP_ERR_DAMAGED, "uncertainty_ns is missing");
}

static void test_bad_message_bytes(void **state) {
    (void)state;
    const char *path = basic("bytes.h5");
    size_t rows = 0;
    int64_t *ids = fs_read_ints(path, INDEX "region_ids", &rows);
    free(ids);
    assert_true(rows >= 2 && rows < 16);
    int64_t bytes[16];
    for (size_t i = 0; i < rows; i++)
        bytes[i] = (int64_t)i * 8 - 1; /* -1, 7, 15, ... */
    fs_make_group(path, "/scope_profiler_c");
    fs_make_group(path, "/scope_profiler_c/message_bytes");
    fs_replace_ints(path, "/scope_profiler_c/message_bytes/bytes", H5T_STD_I64LE, bytes, rows);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.rows[0].has_message_bytes, 0);
    assert_int_equal(m.rows[1].has_message_bytes, 1);
    assert_int_equal(m.rows[1].message_bytes, 7);
    sp_model_clear(&m);
    fs_replace_ints(path, "/scope_profiler_c/message_bytes/bytes", H5T_STD_I64LE, bytes, rows - 1);
    fs_expect_error(path, SP_ERR_DAMAGED, "message_bytes/bytes");
    bytes[1] = -2;
    fs_replace_ints(path, "/scope_profiler_c/message_bytes/bytes", H5T_STD_I64LE, bytes, rows);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "/scope_profiler_c/message_bytes/bytes[1] is -2, not a byte count");
}

static void test_implausible_statistics(void **state) {
    (void)state;
    const char *path = basic("stats.h5");
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, INDEX "summary_statistics", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(t, "minimum", 0, H5T_NATIVE_INT64);
    H5Tinsert(t, "maximum", 8, H5T_NATIVE_INT64);
    int64_t v[4][2];
    assert_true(H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    v[2][0] = v[2][1] + 1;
    assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Tclose(t);
    H5Dclose(ds);
    H5Fclose(f);
    fs_expect_error(path, SP_ERR_DAMAGED, "row 2 of /rank_region_index");
}

/* A header can claim any extent; nothing that large may be allocated. */
static void test_huge_claimed_extent(void **state) {
    (void)state;
    const char *path = basic("huge.h5");
    fs_delete(path, "/events/durations");
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hsize_t dims = (hsize_t)1 << 50, chunk = 1024;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    hid_t ds =
        H5Dcreate2(f, "/events/durations", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(ds >= 0);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    fs_expect_error(path, SP_ERR_DAMAGED, "/events/durations claims 1125899906842624 elements");
}

/* --- quiet ----------------------------------------------------------------- */

static herr_t sentinel_handler(hid_t stack, void *data) {
    (void)stack;
    (void)data;
    return 0;
}

static void test_silent_and_restores_handler(void **state) {
    (void)state;
    const char *bad = basic("quiet.h5");
    int64_t counts[] = {3, 2, 3, 0};
    fs_replace_ints(bad, INDEX "event_counts", H5T_STD_U64LE, counts, 4);
    const char *truncated = basic("quiet_truncated.h5");
    assert_int_equal(truncate(truncated, 100), 0);
    int sentinel = 0;
    H5E_auto2_t old_func;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
    H5Eset_auto2(H5E_DEFAULT, sentinel_handler, &sentinel);

    fflush(stderr);
    int saved = dup(2);
    const char *log = fs_path("stderr.txt");
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    sp_model m;
    sp_error err;
    assert_int_equal(sp_read_model(bad, &m, &err), SP_ERR_DAMAGED);
    assert_int_equal(sp_read_model(truncated, &m, &err), SP_ERR_DAMAGED);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    struct stat sb;
    assert_int_equal(stat(log, &sb), 0);
    assert_int_equal(sb.st_size, 0);

    H5E_auto2_t func;
    void *data;
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    assert_ptr_equal(func, sentinel_handler);
    assert_ptr_equal(data, &sentinel);
    H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_such_file),
        cmocka_unit_test(test_permission_denied),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_not_hdf5),
        cmocka_unit_test(test_locked_by_writer),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_not_a_profile),
        cmocka_unit_test(test_schema_too_new),
        cmocka_unit_test(test_bad_schema_attribute),
        cmocka_unit_test(test_float_durations),
        cmocka_unit_test(test_two_dimensional),
        cmocka_unit_test(test_string_where_integer),
        cmocka_unit_test(test_integer_where_string),
        cmocka_unit_test(test_group_where_dataset),
        cmocka_unit_test(test_bad_summary_statistics),
        cmocka_unit_test(test_missing_dataset),
        cmocka_unit_test(test_offsets_past_end),
        cmocka_unit_test(test_overlapping_rows),
        cmocka_unit_test(test_counts_disagree),
        cmocka_unit_test(test_column_lengths_disagree),
        cmocka_unit_test(test_negative_durations),
        cmocka_unit_test(test_message_stays_one_line),
        cmocka_unit_test(test_schema2_end_before_start),
        cmocka_unit_test(test_times_out_of_range),
        cmocka_unit_test(test_bad_region_ids_and_ranks),
        cmocka_unit_test(test_duplicate_and_scattered_rows),
        cmocka_unit_test(test_bad_thread_ids),
        cmocka_unit_test(test_bad_clock_offsets),
        cmocka_unit_test(test_bad_message_bytes),
        cmocka_unit_test(test_implausible_statistics),
        cmocka_unit_test(test_huge_claimed_extent),
        cmocka_unit_test(test_silent_and_restores_handler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
