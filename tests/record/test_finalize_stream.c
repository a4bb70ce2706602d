/*
 * Finalize streams the calls from the threads' chunks to the file (issue 10
 * item 2): the file equals, value for value, the one the model path writes
 * for the same recording (threads merged, pieces and chunks crossed, open
 * calls left out, compressed or not), and a quiet finalize of calls of
 * several threads in one region needs only a bounded buffer above the
 * recording.
 */
#include <hdf5.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "format/writer.h"
#include "record/clock.h"
#include "record/collect.h"
#include "record/collect_stream.h"
#include "record_support.h"

#define WORKERS 3

static sp_region_t shared_region, inner_region, outer_region;
static long worker_calls;

static void *worker(void *arg) {
    long extra = (long)(intptr_t)arg;
    for (long i = 0; i < worker_calls + extra; i++) {
        sp_begin(shared_region);
        if (i % 3 == 0) {
            sp_begin(inner_region);
            sp_end(inner_region);
        }
        sp_end(shared_region);
    }
    return NULL;
}

/* Calls of three threads and the main one, the shared row past one piece. */
static void record_workload(long calls) {
    shared_region = sp_region("shared");
    inner_region = sp_region("inner");
    outer_region = sp_region("outer");
    worker_calls = calls;
    pthread_t t[WORKERS];
    sp_begin(outer_region);
    for (int i = 0; i < WORKERS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i * 7)), 0);
    for (long i = 0; i < calls / 4; i++) {
        sp_begin(outer_region); /* recursion */
        sp_begin(shared_region);
        sp_end(shared_region);
        sp_end(outer_region);
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    sp_end(outer_region);
    sp_begin(inner_region); /* still open at finalize: left out */
}

/* Every dataset of a equals b's: type, shape, storage size and each value. */
typedef struct compare_ctx {
    hid_t other;
    size_t datasets;
} compare_ctx;

static void compare_dataset(hid_t a, hid_t b, const char *name) {
    hid_t da = H5Dopen2(a, name, H5P_DEFAULT), db = H5Dopen2(b, name, H5P_DEFAULT);
    assert_true(da >= 0);
    assert_true(db >= 0);
    hid_t ta = H5Dget_type(da), tb = H5Dget_type(db);
    assert_true(H5Tequal(ta, tb) > 0);
    hid_t sa = H5Dget_space(da);
    hssize_t n = H5Sget_simple_extent_npoints(sa);
    hid_t sb = H5Dget_space(db);
    assert_int_equal(n, H5Sget_simple_extent_npoints(sb));
    assert_int_equal(H5Dget_storage_size(da), H5Dget_storage_size(db));
    size_t count = n > 0 ? (size_t)n : 0;
    if (H5Tis_variable_str(ta) > 0) {
        char **va = calloc(count + 1, sizeof *va), **vb = calloc(count + 1, sizeof *vb);
        assert_true(H5Dread(da, ta, H5S_ALL, H5S_ALL, H5P_DEFAULT, va) >= 0);
        assert_true(H5Dread(db, tb, H5S_ALL, H5S_ALL, H5P_DEFAULT, vb) >= 0);
        for (size_t i = 0; i < count; i++)
            assert_string_equal(va[i], vb[i]);
        H5Dvlen_reclaim(ta, sa, H5P_DEFAULT, va);
        H5Dvlen_reclaim(tb, sb, H5P_DEFAULT, vb);
        free(va);
        free(vb);
    } else {
        hid_t native = H5Tget_native_type(ta, H5T_DIR_ASCEND);
        size_t size = H5Tget_size(native) * (count ? count : 1);
        char *ba = calloc(1, size), *bb = calloc(1, size);
        assert_true(H5Dread(da, native, H5S_ALL, H5S_ALL, H5P_DEFAULT, ba) >= 0);
        assert_true(H5Dread(db, native, H5S_ALL, H5S_ALL, H5P_DEFAULT, bb) >= 0);
        if (memcmp(ba, bb, size) != 0) print_message("%s differs\n", name);
        assert_memory_equal(ba, bb, size);
        free(ba);
        free(bb);
        H5Tclose(native);
    }
    H5Sclose(sa);
    H5Sclose(sb);
    H5Tclose(ta);
    H5Tclose(tb);
    H5Dclose(da);
    H5Dclose(db);
}

static herr_t visit(hid_t obj, const char *name, const H5O_info_t *info, void *data) {
    compare_ctx *c = data;
    /* the main thread is alive: its CPU time is read at each collection */
    if (info->type == H5O_TYPE_DATASET && strcmp(name, "thread_table/cpu_ns") == 0) {
        c->datasets++;
    } else if (info->type == H5O_TYPE_DATASET) {
        compare_dataset(obj, c->other, name);
        c->datasets++;
    } else if (strcmp(name, ".") != 0) {
        assert_true(H5Lexists(c->other, name, H5P_DEFAULT) > 0);
    }
    return 0;
}

static size_t count_objects(hid_t file) {
    H5G_info_t info;
    assert_true(H5Gget_info(file, &info) >= 0);
    return (size_t)info.nlinks;
}

static size_t files_equal(const char *path_a, const char *path_b) {
    hid_t a = H5Fopen(path_a, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t b = H5Fopen(path_b, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(b >= 0);
    assert_int_equal(count_objects(a), count_objects(b));
    compare_ctx c = {b, 0};
    assert_true(H5Ovisit(a, H5_INDEX_NAME, H5_ITER_NATIVE, visit, &c) >= 0);
    compare_ctx back = {a, 0};
    assert_true(H5Ovisit(b, H5_INDEX_NAME, H5_ITER_NATIVE, visit, &back) >= 0);
    assert_int_equal(c.datasets, back.datasets);
    H5Fclose(a);
    H5Fclose(b);
    return c.datasets;
}

/* One recording written by both paths: the chunks streamed first (they give
 * nothing back), then the model path (which does). */
static void both_paths_write_the_same(const rs_fixture *f, sp_compression compression) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_workload(40000);
    sp_clock_stop(); /* the conversion's second calibration point, as finalize takes it */

    char streamed[4200], modelled[4200];
    snprintf(streamed, sizeof streamed, "%s/streamed.h5", f->dir);
    snprintf(modelled, sizeof modelled, "%s/modelled.h5", f->dir);
    sp_write_options wo = {compression, 4};
    sp_error err = {SP_OK, ""};

    sp_model skeleton;
    memset(&skeleton, 0, sizeof skeleton);
    sp_collect_report rs;
    sp_collect_stream *stream = NULL;
    assert_int_equal(sp_collect_skeleton(&skeleton, 0, &rs, 1, &stream), SP_OK);
    assert_null(skeleton.starts);
    assert_int_equal(sp_collect_stream_write(stream, &skeleton, streamed, &wo, NULL, NULL, &err),
                     SP_OK);
    /* a second write from the same chunks (the fallback's) is the same */
    char again[4200];
    snprintf(again, sizeof again, "%s/again.h5", f->dir);
    assert_int_equal(sp_collect_stream_write(stream, &skeleton, again, &wo, NULL, NULL, &err),
                     SP_OK);

    sp_model model;
    memset(&model, 0, sizeof model);
    sp_collect_report rm;
    assert_int_equal(sp_collect(&model, 0, &rm), SP_OK);
    assert_int_equal(sp_write_model(&model, modelled, &wo, &err), SP_OK);

    /* workers: 120,021 shared, 13,334 + 13,336 + 13,338 inner; main: 10,000
     * shared, 10,001 outer */
    const long expected = 120021 + 40008 + 10000 + 10001;
    assert_int_equal(rs.calls, rm.calls);
    assert_int_equal(rs.calls, (uint64_t)expected);
    assert_int_equal(rs.open_calls, 2); /* the session's own region, and "inner" */
    assert_int_equal(rs.threads, WORKERS + 1);
    assert_int_equal(skeleton.num_rows, model.num_rows);
    for (size_t i = 0; i < model.num_rows; i++) {
        assert_int_equal(skeleton.rows[i].count, model.rows[i].count);
        assert_memory_equal(&skeleton.rows[i].stats, &model.rows[i].stats,
                            sizeof model.rows[i].stats);
    }
    for (size_t i = 0; i < model.num_threads; i++) {
        assert_int_equal(skeleton.threads[i].start_ns, model.threads[i].start_ns);
        assert_int_equal(skeleton.threads[i].end_ns, model.threads[i].end_ns);
    }
    /* region_table, rank_region_index (11 columns), events (3), thread_table (9) */
    assert_true(files_equal(streamed, modelled) >= 1 + 11 + 3 + 9);
    files_equal(again, modelled);
    sp_collect_stream_free(stream);
    sp_model_clear(&skeleton);
    sp_model_clear(&model);
    sp_end(inner_region);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
}

static void test_same_file_uncompressed(void **state) {
    both_paths_write_the_same(*state, SP_COMPRESSION_NONE);
}

static void test_same_file_gzip(void **state) {
    both_paths_write_the_same(*state, SP_COMPRESSION_AUTO);
}

static long status_kib(const char *field) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0) value = atol(line + n);
    if (f) fclose(f);
    return value;
}

/* Two threads' calls of one region, 2 million (30.5 MiB): the model path
 * merged them through a 24-byte-per-call scratch copy and the 16-byte model
 * (about 60 MiB above the recording); streaming needs its pieces only. */
static void test_quiet_finalize_memory_is_bounded(void **state) {
    const rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.compression = SP_COMPRESSION_NONE;
    assert_int_equal(sp_setup(&opt), SP_OK);
    shared_region = sp_region("shared");
    inner_region = sp_region("inner");
    worker_calls = 1000000;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker, NULL), 0);
    for (long i = 0; i < worker_calls; i++) {
        sp_begin(shared_region);
        sp_end(shared_region);
    }
    pthread_join(t, NULL);
    long before = status_kib("VmRSS:");
    FILE *reset = fopen("/proc/self/clear_refs", "w");
    if (!reset) skip();
    fputs("5", reset);
    fclose(reset);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    long above = status_kib("VmHWM:") - before;
    print_message("peak %ld KiB above the recording's %ld KiB\n", above, before);
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
    assert_true(above < 16 * 1024); /* a sanitizer's shadow memory grows with what is touched */
#endif
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "shared"), 2000000);
    rs_profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_file_uncompressed, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_same_file_gzip, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_quiet_finalize_memory_is_bounded, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
