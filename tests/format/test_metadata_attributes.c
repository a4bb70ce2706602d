/*
 * /metadata's attributes (issue 22 item 8): read in place, every compact
 * attribute message decoded by a probe first and every string type checked
 * before libhdf5 converts a value. A sound file gives the same metadata as
 * before (the fixture, and a file holding one attribute of each kind); a
 * damaged attribute is an error status naming the file, the attribute and
 * the way out, never a signal or a hang; the byte fuzzer's finds on this
 * path read in-process.
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

static void expect_text(const sp_model *m, size_t i, const char *key, const char *value) {
    assert_true(i < m->num_meta);
    assert_string_equal(m->meta[i].key, key);
    assert_int_equal(m->meta[i].type, SP_META_STRING);
    assert_string_equal(m->meta[i].s, value);
}

static void expect_number(const sp_model *m, size_t i, const char *key, int64_t value) {
    assert_true(i < m->num_meta);
    assert_string_equal(m->meta[i].key, key);
    assert_int_equal(m->meta[i].type, SP_META_INT);
    assert_int_equal(m->meta[i].i, value);
}

/* The Python package's profile: 11 compact attributes, in name order. */
static void fixture_metadata_unchanged(void **state) {
    (void)state;
    sp_model m;
    fs_read_ok(fs_source("../fixtures/py_tutorial2.h5"), &m);
    assert_int_equal(m.num_meta, 11);
    expect_text(&m, 0, "chip_information", "AMD EPYC");
    expect_number(&m, 1, "finalize_time_ns", 3345925515719);
    expect_text(&m, 2, "label", "tutorial 2");
    expect_number(&m, 3, "mpi_size", 1);
    expect_number(&m, 4, "omp_num_threads", 2);
    expect_text(&m, 5, "platform", "Linux-6.18.44-fc-v595-x86_64-with-glibc2.36");
    expect_text(&m, 6, "python_version", "3.11.2");
    expect_text(&m, 7, "scope_profiler_version", "0.7.3");
    expect_number(&m, 8, "start_time_ns", 3345847280495);
    expect_text(&m, 9, "timestamp", "2026-11-29T16:30:09.690934+00:00");
    expect_number(&m, 10, "total_cores", 2);
    sp_model_clear(&m);
}

static void add_attr(hid_t group, const char *name, hid_t type, hid_t space, const void *value) {
    hid_t a = H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Awrite(a, type, value) >= 0);
    H5Aclose(a);
}

/* The basic profile with a /metadata group of one compact attribute of each
 * kind the reader knows (names in the order it lists them). */
static const char *file_with_attributes(const char *name) {
    const char *path = fs_path(name);
    fs_write_basic(path);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    if (H5Lexists(f, "/metadata", H5P_DEFAULT) > 0)
        assert_true(H5Ldelete(f, "/metadata", H5P_DEFAULT) >= 0);
    hid_t g = H5Gcreate2(f, "/metadata", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t scalar = H5Screate(H5S_SCALAR);
    hsize_t two = 2, grid[2] = {2, 2};
    hid_t pair = H5Screate_simple(1, &two, NULL), square = H5Screate_simple(2, grid, NULL);
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, H5T_VARIABLE);
    const char *hello = "hello", *hosts[2] = {"n1", "n2"};
    add_attr(g, "a_text", text, scalar, &hello);
    int64_t count = 42;
    add_attr(g, "b_count", H5T_NATIVE_INT64, scalar, &count);
    double ratio = 0.5;
    add_attr(g, "c_ratio", H5T_NATIVE_DOUBLE, scalar, &ratio);
    add_attr(g, "d_hosts", text, pair, hosts);
    hid_t flag = H5Tenum_create(H5T_NATIVE_INT8);
    int8_t no = 0, yes = 1;
    H5Tenum_insert(flag, "FALSE", &no);
    H5Tenum_insert(flag, "TRUE", &yes);
    add_attr(g, "e_flag", flag, scalar, &yes);
    int32_t cells[4] = {1, 2, 3, 4};
    add_attr(g, "f_grid", H5T_NATIVE_INT32, square, cells);
    H5Tclose(flag);
    H5Tclose(text);
    H5Sclose(square);
    H5Sclose(pair);
    H5Sclose(scalar);
    H5Gclose(g);
    H5Fclose(f);
    return path;
}

static void every_kind_reads_in_place(void **state) {
    (void)state;
    sp_model m;
    fs_read_ok(file_with_attributes("kinds.h5"), &m);
    assert_int_equal(m.num_meta, 6);
    expect_text(&m, 0, "a_text", "hello");
    expect_number(&m, 1, "b_count", 42);
    assert_string_equal(m.meta[2].key, "c_ratio");
    assert_int_equal(m.meta[2].type, SP_META_FLOAT);
    assert_true(m.meta[2].f == 0.5);
    assert_string_equal(m.meta[3].key, "d_hosts");
    assert_int_equal(m.meta[3].type, SP_META_STRING_LIST);
    assert_int_equal(m.meta[3].list_len, 2);
    assert_string_equal(m.meta[3].list[0], "n1");
    assert_string_equal(m.meta[3].list[1], "n2");
    expect_text(&m, 4, "e_flag", "true");
    expect_text(&m, 5, "f_grid", "[1, 2, 3, 4]");
    sp_model_clear(&m);
}

/* Where a_text's stored string type names the size of its characters: the
 * base type after the attribute's name (fixed-point, version 1, 1 byte). */
static off_t character_size_of_a_text(const char *path) {
    size_t n;
    unsigned char *bytes = fs_load(path, &n);
    const unsigned char *name = memmem(bytes, n, "a_text", 7);
    assert_non_null(name);
    static const unsigned char base[8] = {0x10, 0, 0, 0, 1, 0, 0, 0};
    size_t from = (size_t)(name - bytes);
    const unsigned char *at = memmem(name, n - from < 64 ? n - from : 64, base, sizeof base);
    assert_non_null(at);
    off_t offset = (off_t)(at - bytes) + 4;
    free(bytes);
    return offset;
}

/* libhdf5 1.10 would zero-fill 16 MiB per character of "hello" (a hang on
 * longer strings): the reader refuses the type before any conversion. */
static void damaged_character_size_is_an_error(void **state) {
    (void)state;
    const char *path = file_with_attributes("char_size.h5");
    static const unsigned char size[4] = {1, 0, 0, 1}; /* 16777217 */
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, size, sizeof size, character_size_of_a_text(path)), 4);
    close(fd);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: the attribute a_text of /metadata holds variable-length "
                    "strings of 16777217-byte characters; deleting it (h5py: del "
                    "f['metadata'].attrs['a_text']) lets the rest of the profile be read");
}

/* The byte fuzzer's finds on this path (tests/fuzz/regressions_bytes). */
static void fuzzer_finds_read_in_process(void **state) {
    (void)state;
    /* an attribute message that does not decode: libhdf5 crashed in H5A__close */
    fs_expect_error(fs_source("../fuzz/regressions_bytes/h5a-close-attribute-iterate.bin"),
                    SP_ERR_DAMAGED,
                    "damaged profile: the attributes of /metadata cannot be read (a damaged "
                    "attribute message)");
    fs_expect_error(fs_source("../fuzz/regressions_bytes/h5a-close-attribute-iterate-2.bin"),
                    SP_ERR_DAMAGED,
                    "damaged profile: the attributes of /metadata cannot be read (a damaged "
                    "attribute message)");
    /* the hang in H5T__conv_vlen under H5Ocopy, then H5Aread */
    fs_expect_error(fs_source("../fuzz/regressions_bytes/conv-vlen-attribute-char-size.bin"),
                    SP_ERR_DAMAGED,
                    "damaged profile: the attribute python_version of /metadata holds "
                    "variable-length strings of 2785017857-byte characters; deleting it");
    /* H5Ocopy crashed in H5HG_insert writing these into its copy; read in place,
     * the damaged attribute is a variable-length sequence, shown by its kind */
    static const struct {
        const char *file, *key;
    } copies[] = {{"h5hg-insert-attribute-copy.bin", "label"},
                  {"h5hg-insert-attribute-copy-2.bin", "timestamp"}};
    for (size_t i = 0; i < 2; i++) {
        char relative[256];
        snprintf(relative, sizeof relative, "../fuzz/regressions_bytes/%s", copies[i].file);
        sp_model m;
        fs_read_ok(fs_source(relative), &m);
        const sp_meta_entry *e = sp_model_meta_find(&m, copies[i].key);
        assert_non_null(e);
        assert_int_equal(e->type, SP_META_STRING);
        assert_string_equal(e->s, "(an HDF5 variable-length sequence value)");
        assert_int_equal(m.num_meta, 11);
        sp_model_clear(&m);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_metadata_unchanged),
        cmocka_unit_test(every_kind_reads_in_place),
        cmocka_unit_test(damaged_character_size_is_an_error),
        cmocka_unit_test(fuzzer_finds_read_in_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
