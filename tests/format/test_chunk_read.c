/* The reader's own chunk decoder (src/format/chunk_read.c, chunk_decode.c;
 * issue 29 item 5): every pipeline it takes reads byte for byte what
 * H5Dread gives, on 1 to 3 threads; pipelines, types and layouts it leaves
 * to HDF5 say so before reading; a chunk that does not decode is damage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <hdf5.h>
#include <zlib.h>

#include "common/error.h"
#include "common/worker_threads.h"
#include "format/chunk_decode.h"
#include "format/chunk_read.h"
#include "format/lzf_filter.h"
#include "format_support.h"

#ifdef SP_TEST_HAVE_LZF
#include <lzf.h>
#endif

enum pipeline { NONE, DEFLATE, SHUFFLE_DEFLATE, SHUFFLE_LZF, FLETCHER_DEFLATE, SHUFFLE_ONLY };

/* Values like an event column's: small deltas with a few large ones. */
static int64_t value_at(size_t i) {
    uint64_t h = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    return (int64_t)(i % 97 == 0 ? h >> 8 : (h >> 52) + 1000 + (int64_t)(i % 7));
}

static hid_t pipeline_dcpl(enum pipeline p, hsize_t chunk) {
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    assert_true(H5Pset_chunk(dcpl, 1, &chunk) >= 0);
    if (p == FLETCHER_DEFLATE) H5Pset_fletcher32(dcpl);
    if (p == SHUFFLE_DEFLATE || p == SHUFFLE_LZF || p == FLETCHER_DEFLATE || p == SHUFFLE_ONLY)
        H5Pset_shuffle(dcpl);
    if (p == DEFLATE || p == SHUFFLE_DEFLATE || p == FLETCHER_DEFLATE) H5Pset_deflate(dcpl, 4);
    if (p == SHUFFLE_LZF) {
        unsigned cd[3] = {4, 0x0105, (unsigned)(chunk * 8)};
        assert_true(H5Pset_filter(dcpl, SP_LZF_FILTER_ID, H5Z_FLAG_OPTIONAL, 3, cd) >= 0);
    }
    return dcpl;
}

#ifdef SP_TEST_HAVE_LZF
/* The library registers an LZF decoder only: the test's filter also
 * encodes (as h5py's does), so that HDF5 writes LZF chunks itself.
 * (valgrind reports liblzf's compressor reading its own uninitialised hash
 * table, by liblzf's design; its output is sound.) */
static size_t test_lzf(unsigned flags, size_t ncd, const unsigned cd[], size_t nbytes,
                       size_t *buf_size, void **buf) {
    size_t size = (flags & H5Z_FLAG_REVERSE) ? (ncd > 2 ? cd[2] : 0) : nbytes;
    void *out = malloc(size ? size : 1);
    unsigned got = 0;
    if (out && (flags & H5Z_FLAG_REVERSE))
        got = lzf_decompress(*buf, (unsigned)nbytes, out, (unsigned)size);
    else if (out)
        got = lzf_compress(*buf, (unsigned)nbytes, out, (unsigned)size);
    if (!got) {
        free(out);
        return 0; /* incompressible: the optional filter is skipped for this chunk */
    }
    free(*buf);
    *buf = out;
    *buf_size = size;
    return got;
}

static void register_test_lzf(void) {
    static const H5Z_class2_t lzf_class = {
        .version = H5Z_CLASS_T_VERS,
        .id = SP_LZF_FILTER_ID,
        .encoder_present = 1,
        .decoder_present = 1,
        .name = "lzf (test encoder)",
        .filter = test_lzf,
    };
    assert_true(H5Zregister(&lzf_class) >= 0);
}
#endif

/* A file holding /col: n values of file type `type` in chunks of `chunk`. */
static const char *write_column(const char *name, enum pipeline p, hid_t type, size_t n,
                                size_t chunk) {
    const char *path = fs_path(name);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = n, unlimited = H5S_UNLIMITED; /* chunks may be longer than the column */
    hid_t space = H5Screate_simple(1, &dims, &unlimited);
    hid_t dcpl = pipeline_dcpl(p, chunk);
    hid_t ds = H5Dcreate2(f, "/col", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(ds >= 0);
    int64_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = value_at(i);
    assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    free(v);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    return path;
}

typedef struct outcome {
    sp_status st;
    int handled;
    char message[1100];
} outcome;

/* Reads /col with the decoder into out (n values) on `threads` threads. */
static outcome decode_column(const char *path, size_t n, int64_t *out, int threads) {
    outcome o = {0};
    sp_error err;
    sp_error_clear(&err);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "/col", H5P_DEFAULT);
    sp_rd rd = {.file = f, .path = path, .err = &err};
    o.st = sp_rd_chunk_read_int64(&rd, ds, "/col", n, out, threads, &o.handled);
    snprintf(o.message, sizeof o.message, "%s", err.message);
    H5Dclose(ds);
    H5Fclose(f);
    return o;
}

static int64_t *hdf5_column(const char *path, size_t n, hid_t mem) {
    int64_t *v = malloc(n * sizeof *v);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "/col", H5P_DEFAULT);
    assert_true(H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
    return v;
}

static void assert_same_as_hdf5(enum pipeline p, hid_t type, size_t n, size_t chunk) {
    const char *path = write_column("col.h5", p, type, n, chunk);
    hid_t mem = H5Tget_sign(type) == H5T_SGN_NONE ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64;
    int64_t *want = hdf5_column(path, n, mem);
    int64_t *got = malloc(n * sizeof *got);
    for (int threads = 1; threads <= 3; threads++) {
        memset(got, 0xa5, n * sizeof *got);
        outcome o = decode_column(path, n, got, threads);
        if (o.st || !o.handled)
            fail_msg("pipeline %d, %zu values in chunks of %zu, %d threads: status %d, handled "
                     "%d (%s)",
                     (int)p, n, chunk, threads, (int)o.st, o.handled, o.message);
        if (memcmp(got, want, n * sizeof *got) != 0)
            fail_msg("pipeline %d, %zu values in chunks of %zu, %d threads: values differ", (int)p,
                     n, chunk, threads);
    }
    free(got);
    free(want);
}

static void test_pipelines_read_as_hdf5_does(void **state) {
    (void)state;
    const enum pipeline pipelines[] = {NONE, DEFLATE, SHUFFLE_DEFLATE, SHUFFLE_ONLY};
    const size_t shapes[][2] = {
        {65536, 65536}, {65536 * 3 + 17, 65536}, {1, 4096}, {100000, 4097}, {5000, 1000},
        {31, 16},       {300000, 300000}};
    for (size_t p = 0; p < sizeof pipelines / sizeof *pipelines; p++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            assert_same_as_hdf5(pipelines[p], H5T_STD_I64LE, shapes[s][0], shapes[s][1]);
}

static void test_unsigned_columns_keep_their_bytes(void **state) {
    (void)state;
    assert_same_as_hdf5(SHUFFLE_DEFLATE, H5T_STD_U64LE, 200001, 65536);
}

/* Batches of at most 64 chunks: a column of many small chunks crosses them. */
static void test_many_chunks_cross_batches(void **state) {
    (void)state;
    assert_same_as_hdf5(SHUFFLE_DEFLATE, H5T_STD_I64LE, 64 * 3 * 100 + 55, 100);
}

static void test_lzf_chunks(void **state) {
    (void)state;
#ifdef SP_TEST_HAVE_LZF
    register_test_lzf();
    assert_same_as_hdf5(SHUFFLE_LZF, H5T_STD_I64LE, 65536 * 2 + 5, 65536);
    assert_same_as_hdf5(SHUFFLE_LZF, H5T_STD_I64LE, 999, 1000);
#else
    skip();
#endif
}

/* --- elements of any size: compound records and fixed-length strings ---- */

/* A type of elem bytes: a compound of elem / 8 int64 fields when elem is a
 * multiple of 8 (the statistics records), else a fixed-length string. */
static hid_t element_type(size_t elem) {
    if (elem % 8 == 0) {
        hid_t t = H5Tcreate(H5T_COMPOUND, elem);
        for (size_t k = 0; k < elem / 8; k++) {
            char name[24];
            snprintf(name, sizeof name, "f%zu", k);
            assert_true(H5Tinsert(t, name, 8 * k, H5T_STD_I64LE) >= 0);
        }
        return t;
    }
    hid_t t = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(t, elem) >= 0);
    assert_true(H5Tset_strpad(t, H5T_STR_NULLPAD) >= 0);
    return t;
}

/* Bytes that compress like real columns: mostly repeats, some noise. */
static unsigned char element_byte(size_t i, size_t elem) {
    size_t e = i / elem, j = i % elem;
    return (unsigned char)(e % 89 == 0 ? (e * 31 + j * 7) & 0xff : 'a' + (j + e / 1000) % 5);
}

static void assert_elements_as_hdf5(enum pipeline p, size_t elem, size_t n, size_t chunk) {
    const char *path = fs_path("elements.h5");
    hid_t type = element_type(elem);
    unsigned char *want = malloc(n * elem), *got = malloc(n * elem);
    for (size_t i = 0; i < n * elem; i++)
        want[i] = element_byte(i, elem);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = n, unlimited = H5S_UNLIMITED;
    hid_t space = H5Screate_simple(1, &dims, &unlimited);
    hid_t dcpl = pipeline_dcpl(p, chunk);
    hid_t ds = H5Dcreate2(f, "/col", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(ds >= 0);
    assert_true(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, want) >= 0);
    H5Dclose(ds), H5Pclose(dcpl), H5Sclose(space), H5Fclose(f);
    for (int threads = 1; threads <= 3; threads += 2) {
        sp_error err;
        sp_error_clear(&err);
        f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        ds = H5Dopen2(f, "/col", H5P_DEFAULT);
        sp_rd rd = {.file = f, .path = path, .err = &err};
        int handled = 0;
        memset(got, 0x5a, n * elem);
        sp_status st = sp_rd_chunk_read(&rd, ds, "/col", n, elem, got, threads, &handled);
        if (st || !handled || memcmp(got, want, n * elem) != 0)
            fail_msg("pipeline %d, %zu elements of %zu bytes in chunks of %zu, %d threads: "
                     "status %d, handled %d, %s (%s)",
                     (int)p, n, elem, chunk, threads, (int)st, handled,
                     memcmp(got, want, n * elem) ? "bytes differ" : "bytes equal", err.message);
        /* asked for another element size, it leaves the column to HDF5 */
        st = sp_rd_chunk_read(&rd, ds, "/col", n, elem + 1, got, threads, &handled);
        assert_int_equal(st, SP_OK);
        assert_int_equal(handled, 0);
        H5Dclose(ds), H5Fclose(f);
    }
    H5Tclose(type);
    free(want), free(got);
}

static void test_records_and_strings_read_as_stored(void **state) {
    (void)state;
    const enum pipeline pipelines[] = {NONE, DEFLATE, SHUFFLE_DEFLATE, SHUFFLE_ONLY};
    const size_t elems[] = {1, 2, 3, 16, 88};
    const size_t shapes[][2] = {{1, 744}, {31, 16}, {5000, 744}, {40000, 32768}};
    for (size_t p = 0; p < sizeof pipelines / sizeof *pipelines; p++)
        for (size_t e = 0; e < sizeof elems / sizeof *elems; e++)
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
                assert_elements_as_hdf5(pipelines[p], elems[e], shapes[s][0], shapes[s][1]);
}

static void assert_not_handled(const char *path, size_t n) {
    int64_t *got = malloc(n * sizeof *got);
    outcome o = decode_column(path, n, got, 2);
    assert_int_equal(o.st, SP_OK);
    assert_int_equal(o.handled, 0);
    free(got);
}

static void test_other_columns_are_left_to_hdf5(void **state) {
    (void)state;
    assert_not_handled(write_column("fletcher.h5", FLETCHER_DEFLATE, H5T_STD_I64LE, 5000, 1000),
                       5000);
    assert_not_handled(write_column("int32.h5", DEFLATE, H5T_STD_I32LE, 5000, 1000), 5000);
    assert_not_handled(write_column("be.h5", DEFLATE, H5T_STD_I64BE, 5000, 1000), 5000);
    /* contiguous */
    const char *path = fs_path("contiguous.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = 5000;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t ds = H5Dcreate2(f, "/col", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int64_t *v = calloc(5000, sizeof *v);
    H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    free(v);
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
    assert_not_handled(path, 5000);
}

/* A chunk never written reads as HDF5's fill value: HDF5's business. */
static void test_unwritten_chunk_is_left_to_hdf5(void **state) {
    (void)state;
    const char *path = fs_path("sparse.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = 3000, count = 1000, start = 0, unlimited = H5S_UNLIMITED;
    hid_t space = H5Screate_simple(1, &dims, &unlimited);
    hid_t dcpl = pipeline_dcpl(SHUFFLE_DEFLATE, 1000);
    hid_t ds = H5Dcreate2(f, "/col", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t mem = H5Screate_simple(1, &count, NULL);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &count, NULL);
    int64_t v[1000];
    for (size_t i = 0; i < 1000; i++)
        v[i] = value_at(i);
    assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, mem, space, H5P_DEFAULT, v) >= 0);
    H5Sclose(mem);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    assert_not_handled(path, 3000);
}

/* Replaces chunk `index` of /col with `size` stored bytes and filter mask. */
static void put_chunk(const char *path, size_t chunk, size_t index, const void *bytes, size_t size,
                      uint32_t mask) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "/col", H5P_DEFAULT);
    hsize_t offset = index * chunk;
    assert_true(H5Dwrite_chunk(ds, H5P_DEFAULT, mask, &offset, size, bytes) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
}

/* A chunk stored with deflate skipped (its filter mask says so) decodes
 * through the shuffle alone. */
static void test_filter_mask_is_respected(void **state) {
    (void)state;
    const size_t chunk = 1000, n = 2500;
    const char *path = write_column("masked.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    unsigned char plain[8000];
    for (size_t i = 0; i < chunk; i++)
        for (size_t j = 0; j < 8; j++)
            plain[j * chunk + i] = (unsigned char)(i * 3 + j);
    put_chunk(path, chunk, 1, plain, sizeof plain, 1u << 1); /* filter 1 (deflate) skipped */
    int64_t *want = hdf5_column(path, n, H5T_NATIVE_INT64);
    int64_t *got = malloc(n * sizeof *got);
    outcome o = decode_column(path, n, got, 2);
    assert_int_equal(o.st, SP_OK);
    assert_int_equal(o.handled, 1);
    assert_memory_equal(got, want, n * sizeof *got);
    unsigned char first[8];
    memcpy(first, &got[chunk], 8);
    for (size_t j = 0; j < 8; j++)
        assert_int_equal(first[j], j);
    free(got);
    free(want);
}

static void assert_damaged(const char *path, size_t n, const char *values) {
    int64_t *got = malloc(n * sizeof *got);
    for (int threads = 1; threads <= 2; threads++) {
        outcome o = decode_column(path, n, got, threads);
        assert_int_equal(o.st, SP_ERR_DAMAGED);
        assert_int_equal(o.handled, 1);
        char want[256];
        snprintf(want, sizeof want,
                 "damaged profile: cannot read /col: its chunk of values %s does not decode (a "
                 "damaged file)",
                 values);
        if (!strstr(o.message, want)) fail_msg("message \"%s\" lacks \"%s\"", o.message, want);
    }
    free(got);
}

static void test_damaged_chunks_are_damage(void **state) {
    (void)state;
    const size_t chunk = 1000, n = 2500;
    /* bytes that are no zlib stream */
    const char *path = write_column("garbage.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    unsigned char junk[300];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    put_chunk(path, chunk, 1, junk, sizeof junk, 0);
    assert_damaged(path, n, "1000-1999");
    /* a sound stream of fewer bytes than a chunk */
    unsigned char small[4000] = {0}, packed[200];
    uLongf size = sizeof packed;
    assert_int_equal(compress2(packed, &size, small, sizeof small, 6), Z_OK);
    path = write_column("short.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    put_chunk(path, chunk, 2, packed, size, 0);
    assert_damaged(path, n, "2000-2499");
    /* a stream cut short */
    unsigned char whole[8000] = {0}, big[400];
    size = sizeof big;
    assert_int_equal(compress2(big, &size, whole, sizeof whole, 6), Z_OK);
    path = write_column("cut.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    put_chunk(path, chunk, 0, big, size - 5, 0);
    assert_damaged(path, n, "0-999");
    /* an unfiltered chunk (every filter skipped) of the wrong size */
    path = write_column("raw.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    put_chunk(path, chunk, 1, whole, 7992, 3u);
    assert_damaged(path, n, "1000-1999");
}

/* Through the column reader: a large damaged column is the usual damage. */
static void test_column_reader_reports_damage(void **state) {
    (void)state;
    const size_t chunk = 65536, n = SP_CHUNK_READ_MIN_VALUES + 5;
    const char *path = write_column("big.h5", SHUFFLE_DEFLATE, H5T_STD_I64LE, n, chunk);
    int64_t *want = hdf5_column(path, n, H5T_NATIVE_INT64);
    sp_error err;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    sp_rd rd = {.file = f, .path = path, .err = &err};
    int64_t *got = NULL;
    size_t got_n = 0;
    assert_int_equal(sp_rd_int64_column(&rd, "/col", &got, &got_n), SP_OK);
    assert_int_equal(got_n, n);
    assert_memory_equal(got, want, n * sizeof *got);
    free(got);
    H5Fclose(f);
    unsigned char junk[300] = {0x78, 0x9c, 1, 2, 3};
    put_chunk(path, chunk, 1, junk, sizeof junk, 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    rd.file = f;
    assert_int_equal(sp_rd_int64_column(&rd, "/col", &got, &got_n), SP_ERR_DAMAGED);
    assert_null(got);
    assert_int_equal(got_n, 0);
    assert_non_null(strstr(err.message, "cannot read /col: its chunk of values 65536-131071"));
    H5Fclose(f);
    free(want);
}

/* The pure decoder refuses what cannot be a chunk. */
static void test_decode_refuses_bad_arguments(void **state) {
    (void)state;
    sp_chunk_pipeline none = {0, {SP_STAGE_DEFLATE}, 8};
    unsigned char raw[64] = {0}, out[64], scratch[128];
    assert_int_equal(sp_chunk_decode(&none, 0, raw, 64, 8, 8, out, scratch), 1);
    assert_int_equal(sp_chunk_decode(&none, 0, raw, 63, 8, 8, out, scratch), 0);
    assert_int_equal(sp_chunk_decode(&none, 0, raw, 64, 8, 9, out, scratch), 0);
    sp_chunk_pipeline lzf = {1, {SP_STAGE_LZF}, 8};
#ifndef SP_TEST_HAVE_LZF
    assert_int_equal(sp_chunk_decode(&lzf, 0, raw, 64, 8, 8, out, scratch), 0);
#else
    assert_int_equal(sp_chunk_decode(&lzf, 0, raw, 0, 8, 8, out, scratch), 0);
#endif
    sp_chunk_pipeline no_size = {0, {SP_STAGE_DEFLATE}, 0};
    assert_int_equal(sp_chunk_decode(&no_size, 0, raw, 64, 8, 8, out, scratch), 0);
    sp_chunk_pipeline shuffle = {1, {SP_STAGE_SHUFFLE}, 8};
    for (size_t i = 0; i < 64; i++)
        raw[i] = (unsigned char)i;
    assert_int_equal(sp_chunk_decode(&shuffle, 0, raw, 64, 8, 3, out, scratch), 1);
    for (size_t e = 0; e < 3; e++)
        for (size_t j = 0; j < 8; j++)
            assert_int_equal(out[e * 8 + j], j * 8 + e);
}

static void test_read_threads_from_environment(void **state) {
    (void)state;
    setenv("SCOPE_PROFILER_THREADS", "3", 1);
    assert_int_equal(sp_worker_threads(), 3);
    setenv("SCOPE_PROFILER_THREADS", "1", 1);
    assert_int_equal(sp_worker_threads(), 1);
    setenv("SCOPE_PROFILER_THREADS", "500", 1);
    assert_int_equal(sp_worker_threads(), 8);
    setenv("SCOPE_PROFILER_THREADS", "two", 1);
    int fallback = sp_worker_threads();
    assert_true(fallback >= 1 && fallback <= 8);
    unsetenv("SCOPE_PROFILER_THREADS");
    assert_int_equal(sp_worker_threads(), fallback);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipelines_read_as_hdf5_does),
        cmocka_unit_test(test_unsigned_columns_keep_their_bytes),
        cmocka_unit_test(test_many_chunks_cross_batches),
        cmocka_unit_test(test_lzf_chunks),
        cmocka_unit_test(test_records_and_strings_read_as_stored),
        cmocka_unit_test(test_other_columns_are_left_to_hdf5),
        cmocka_unit_test(test_unwritten_chunk_is_left_to_hdf5),
        cmocka_unit_test(test_filter_mask_is_respected),
        cmocka_unit_test(test_damaged_chunks_are_damage),
        cmocka_unit_test(test_column_reader_reports_damage),
        cmocka_unit_test(test_decode_refuses_bad_arguments),
        cmocka_unit_test(test_read_threads_from_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
