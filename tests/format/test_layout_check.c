/*
 * Dataset layouts checked before libhdf5 reaches them (issue 22 item 8):
 * chunked layouts in the object header before the dataset is opened
 * (src/format/header_check.c; libhdf5 1.10 divides by each chunk dimension
 * while opening: SIGFPE), compact ones against their elements before
 * H5Dread (h5_read.c; libhdf5 copies past the header). The Python fixture's
 * /events/parent_ids is rewritten in a copy and edited byte by byte.
 */
#include <fcntl.h>
#include <hdf5.h>
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

#include "format_support.h"

#define COLUMN "/events/parent_ids"

static void store(const char *path, const unsigned char *bytes, size_t n) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    close(fd);
}

static const char *fixture_copy(const char *name) {
    size_t n;
    unsigned char *bytes = fs_load(fs_source("../fixtures/py_tutorial2.h5"), &n);
    const char *path = fs_path(name);
    store(path, bytes, n);
    free(bytes);
    return path;
}

/* Replaces COLUMN by the same values in chunks of 4 (libhdf5 writes a
 * version-3 layout message: 3, 2 (chunked), 2 dimensions, the index
 * address, 4, 8 (the element size)). */
static const char *copy_with_layout(const char *name, int compact) {
    const char *path = fixture_copy(name);
    size_t n;
    int64_t *values = fs_read_ints(path, COLUMN, &n);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(H5Ldelete(f, COLUMN, H5P_DEFAULT) >= 0);
    hsize_t dims = n, chunk = 4;
    hid_t space = H5Screate_simple(1, &dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (compact)
        H5Pset_layout(dcpl, H5D_COMPACT);
    else
        H5Pset_chunk(dcpl, 1, &chunk);
    hid_t ds = H5Dcreate2(f, COLUMN, H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(ds >= 0);
    assert_true(H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    free(values);
    return path;
}

static const char *chunked_copy(const char *name) {
    return copy_with_layout(name, 0);
}

/* Offset of the first chunk dimension in the chunked copy's layout message. */
static size_t chunk_dimension_offset(const char *path) {
    size_t n;
    unsigned char *bytes = fs_load(path, &n);
    size_t found = 0, count = 0;
    for (size_t i = 0; i + 19 <= n; i++) {
        static const unsigned char dims[8] = {4, 0, 0, 0, 8, 0, 0, 0};
        if (bytes[i] == 3 && bytes[i + 1] == 2 && bytes[i + 2] == 2 &&
            memcmp(bytes + i + 11, dims, 8) == 0) {
            found = i + 11;
            count++;
        }
    }
    free(bytes);
    assert_int_equal(count, 1);
    return found;
}

static void patch_byte(const char *path, size_t at, unsigned char value) {
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, &value, 1, (off_t)at), 1);
    close(fd);
}

/* The sound chunked copy reads the same parent ids as the fixture. */
static void chunked_column_reads(void **state) {
    (void)state;
    sp_model original, chunked;
    fs_read_ok(fixture_copy("original.h5"), &original);
    fs_read_ok(chunked_copy("chunked.h5"), &chunked);
    assert_true(original.num_events > 0);
    assert_int_equal(chunked.num_events, original.num_events);
    assert_non_null(chunked.parent_ids);
    assert_memory_equal(chunked.parent_ids, original.parent_ids,
                        original.num_events * sizeof *original.parent_ids);
    sp_model_clear(&chunked);
    sp_model_clear(&original);
}

static void chunk_dimension_of_zero_is_damage(void **state) {
    (void)state;
    const char *path = chunked_copy("zero_dimension.h5");
    patch_byte(path, chunk_dimension_offset(path), 0);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: " COLUMN " cannot be read: the header of " COLUMN
                    " describes chunks of size 0 in dimension 0 of 2");
}

/* A compact copy (version-3 layout message: 3, 0 (compact), the size in 2
 * bytes, the elements) reads the same; with its size edited to one element
 * less, libhdf5 would copy the missing one from beyond the header. */
static void compact_size_short_of_the_elements_is_damage(void **state) {
    (void)state;
    sp_model original, compact;
    fs_read_ok(fixture_copy("original2.h5"), &original);
    const char *path = copy_with_layout("compact.h5", 1);
    fs_read_ok(path, &compact);
    assert_int_equal(compact.num_events, original.num_events);
    assert_memory_equal(compact.parent_ids, original.parent_ids,
                        original.num_events * sizeof *original.parent_ids);
    size_t bytes = original.num_events * 8, n, found = 0, count = 0;
    unsigned char *file = fs_load(path, &n);
    for (size_t i = 0; i + 4 + bytes <= n; i++)
        if (file[i] == 3 && file[i + 1] == 0 && file[i + 2] == (bytes & 0xff) &&
            file[i + 3] == (bytes >> 8) && memcmp(file + i + 4, original.parent_ids, bytes) == 0) {
            found = i + 2;
            count++;
        }
    free(file);
    assert_int_equal(count, 1);
    patch_byte(path, found, (unsigned char)((bytes - 8) & 0xff));
    patch_byte(path, found + 1, (unsigned char)((bytes - 8) >> 8));
    char message[256];
    snprintf(message, sizeof message,
             "damaged profile: " COLUMN " is a compact dataset of %zu bytes; its %zu element(s) "
             "need %zu",
             bytes - 8, original.num_events, bytes);
    fs_expect_error(path, SP_ERR_DAMAGED, message);
    sp_model_clear(&compact);
    sp_model_clear(&original);
}

/* The fuzzer's finds: a contiguous layout's class byte became "compact"
 * (0 bytes in the header for 1 element), or "chunked"
 * (tests/fuzz/regressions_bytes). */
static void compact_layout_of_0_bytes_is_damage(void **state) {
    (void)state;
    fs_expect_error(fs_source("../fuzz/regressions_bytes/h5d-compact-size.bin"), SP_ERR_DAMAGED,
                    "damaged profile: /rank1/regions/setup/end_times is a compact dataset of 0 "
                    "bytes; its 1 element(s) need 8");
}

/* The fuzzer's find: the contiguous layout's class byte became "chunked",
 * leaving 0 dimensions (tests/fuzz/regressions_bytes). */
static void chunked_layout_without_dimensions_is_damage(void **state) {
    (void)state;
    fs_expect_error(fs_source("../fuzz/regressions_bytes/h5d-chunk-dimensions-zero.bin"),
                    SP_ERR_DAMAGED,
                    "damaged profile: " COLUMN " cannot be read: the header of " COLUMN
                    " describes chunks of 0 dimension(s), at least 2 are needed");
}

/* The fuzzer's find: /region_table's symbol table message names a B-tree
 * far past the end of the file and an undefined local heap (libhdf5 read
 * from a NULL buffer looking up /region_table/names: SIGSEGV). */
static void group_symbol_table_past_the_file_is_damage(void **state) {
    (void)state;
    fs_expect_error(fs_source("../fuzz/regressions_bytes/h5g-symbol-table-address.bin"),
                    SP_ERR_DAMAGED,
                    "damaged profile: /region_table/names cannot be read: the header of "
                    "/region_table places its links' B-tree at byte 18374688678699418962, past "
                    "the end of the file (24283 bytes)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chunked_column_reads),
        cmocka_unit_test(chunk_dimension_of_zero_is_damage),
        cmocka_unit_test(chunked_layout_without_dimensions_is_damage),
        cmocka_unit_test(compact_size_short_of_the_elements_is_damage),
        cmocka_unit_test(compact_layout_of_0_bytes_is_damage),
        cmocka_unit_test(group_symbol_table_past_the_file_is_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
