/*
 * Damaged variable-length strings (issue 10 item 5, docs/robustness.md
 * "Damaged input files"): the basic profile is written, then the stored
 * elements of /region_table/names ("setup", "solve", "io") or the global
 * heap collection they name are edited byte by byte. libhdf5 would copy
 * past a buffer, index past its object table or loop forever on each of
 * these; the reader reports damage instead, with nothing left open. The
 * inputs the byte fuzzer found are read too.
 */
#include <fcntl.h>
#include <hdf5.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "format_support.h"

#define NAMES "/region_table/names"

/* Where the names' elements start in the file (a contiguous dataset). */
static uint64_t names_offset(const char *path) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, NAMES, H5P_DEFAULT);
    haddr_t at = H5Dget_offset(ds);
    H5Dclose(ds);
    H5Fclose(f);
    assert_true(at != HADDR_UNDEF);
    return at;
}

static void patch(const char *path, uint64_t at, const void *bytes, size_t n) {
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, bytes, n, (off_t)at), (ssize_t)n);
    close(fd);
}

static void peek(const char *path, uint64_t at, void *bytes, size_t n) {
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(pread(fd, bytes, n, (off_t)at), (ssize_t)n);
    close(fd);
}

/* Element i: 4-byte length, 8-byte collection address, 4-byte object index. */
typedef struct element {
    uint32_t length;
    uint64_t address;
    uint32_t index;
} element;

static element read_element(const char *path, size_t i) {
    unsigned char raw[16];
    peek(path, names_offset(path) + 16 * i, raw, sizeof raw);
    element e;
    memcpy(&e.length, raw, 4);
    memcpy(&e.address, raw + 4, 8);
    memcpy(&e.index, raw + 12, 4);
    return e;
}

static const char *fresh(const char *name) {
    const char *path = fs_path(name);
    fs_write_basic(path);
    return path;
}

/* "solve" stored as 1 byte long: libhdf5 would copy its 5 bytes into 1. */
static void length_shorter_than_its_object(void **state) {
    (void)state;
    const char *path = fresh("vlen_length.h5");
    element e = read_element(path, 1);
    assert_int_equal(e.length, 5);
    uint32_t one = 1;
    patch(path, names_offset(path) + 16 * 1, &one, 4);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: string 1 of /region_table/names claims 1 bytes but its "
                    "global heap object holds 5");
}

/* A length over the cap (issue 22 item 8): refused before anything of that
 * size is allocated or looked up. */
static void length_over_the_cap(void **state) {
    (void)state;
    const char *path = fresh("vlen_cap.h5");
    uint32_t huge = 100u << 20;
    patch(path, names_offset(path) + 16 * 1, &huge, 4);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: string 1 of /region_table/names claims 104857600 bytes, "
                    "more than the 64 MiB a string of a profile may hold");
}

/* An object index the collection does not hold: libhdf5 indexes past its table. */
static void index_not_in_the_collection(void **state) {
    (void)state;
    const char *path = fresh("vlen_index.h5");
    uint32_t index = 999;
    patch(path, names_offset(path) + 16 * 2 + 12, &index, 4);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: string 2 of /region_table/names names global heap object "
                    "999, which its collection does not hold");
}

static void address_past_the_file(void **state) {
    (void)state;
    const char *path = fresh("vlen_address.h5");
    uint64_t address = 1ull << 40;
    patch(path, names_offset(path) + 4, &address, 8);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: string 0 of /region_table/names: a string points past the "
                    "end of the file");
}

/* Walks the collection's objects to the one with `index` (or the free space, 0). */
static uint64_t object_header(const char *path, uint64_t collection, uint16_t index) {
    unsigned char head[16];
    peek(path, collection, head, sizeof head);
    assert_memory_equal(head, "GCOL", 4);
    uint64_t size;
    memcpy(&size, head + 8, 8);
    for (uint64_t at = collection + 16; at + 16 <= collection + size;) {
        unsigned char obj[16];
        peek(path, at, obj, sizeof obj);
        uint16_t idx;
        uint64_t n;
        memcpy(&idx, obj, 2);
        memcpy(&n, obj + 8, 8);
        if (idx == index) return at;
        at += idx ? 16 + ((n + 7) & ~7ull) : n;
    }
    fail_msg("no object %u", index);
    return 0;
}

/* An object claiming more than its collection: H5HG_read copies past the heap. */
static void object_past_its_collection(void **state) {
    (void)state;
    const char *path = fresh("vlen_object.h5");
    element e = read_element(path, 0);
    uint64_t huge = 100000000;
    patch(path, object_header(path, e.address, (uint16_t)e.index) + 8, &huge, 8);
    char needle[128];
    snprintf(needle, sizeof needle,
             "damaged profile: global heap object %u (100000000 bytes) runs past the end of its "
             "collection",
             e.index);
    fs_expect_error(path, SP_ERR_DAMAGED, needle);
}

/* Free space of 0 bytes: libhdf5's collection walk never moves on. */
static void free_space_of_zero_bytes(void **state) {
    (void)state;
    const char *path = fresh("vlen_free.h5");
    element e = read_element(path, 0);
    uint64_t zero = 0;
    patch(path, object_header(path, e.address, 0) + 8, &zero, 8);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "damaged profile: the free space of a global heap collection claims 0 bytes");
}

/* Found by fuzz_bytes: each crashed (or hung) libhdf5 before. */
static void fuzzer_finds_are_damage(void **state) {
    (void)state;
    static const struct {
        const char *file, *message;
    } finds[] = {
        {"h5hg-read-vlen-overlap.bin",
         "damaged profile: global heap object 16 (100663307 bytes) runs past the end of its "
         "collection"},
        /* its global heap object 1 (1056964616 bytes) runs past its collection too, but
         * the group header check (header_check.c) comes first */
        {"h5hg-read-attribute-overlap.bin",
         "damaged profile: /rank_region_index cannot be read: the header of /rank_region_index "
         "places its link names' local heap at byte 10304235947423702904, past the end of the "
         "file (16584 bytes)"},
        /* issue 22 item 8: strings libhdf5 converts (the guard) and a column's type */
        {"h5hg-read-attribute-string.bin",
         "damaged profile: a stored string names global heap object 31490, which its "
         "collection does not hold"},
        {"h5hg-read-attribute-index.bin",
         "damaged profile: a stored string names global heap object 218103812, which its "
         "collection does not hold"},
        {"h5hg-read-attribute-index-2.bin",
         "damaged profile: a stored string names global heap object 6225923, which its "
         "collection does not hold"},
        {"conv-vlen-attribute-length.bin",
         "damaged profile: a stored string claims 2617245702 bytes, more than the 64 MiB a "
         "string of a profile may hold"},
        {"conv-vlen-attribute-length-2.bin",
         "damaged profile: a stored string claims 3137339402 bytes, more than the 64 MiB a "
         "string of a profile may hold"},
        {"conv-vlen-attribute-length-3.bin",
         "damaged profile: a stored string claims 3238002713 bytes, more than the 64 MiB a "
         "string of a profile may hold"},
        {"h5t-integer-size.bin",
         "damaged profile: /rank_region_index/event_offsets stores numbers of 2902458376 bytes"},
        {"h5hg-free-space-loop.bin",
         "damaged profile: the free space of a global heap collection claims 0 bytes, 3718 are "
         "left"},
    };
    for (size_t i = 0; i < sizeof finds / sizeof *finds; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/../fuzz/regressions_bytes/%s", SP_TEST_SOURCE_DIR,
                 finds[i].file);
        fs_expect_error(path, SP_ERR_DAMAGED, finds[i].message);
    }
}

/* The unmodified file still reads, its names intact. */
static void intact_file_reads(void **state) {
    (void)state;
    const char *path = fresh("vlen_intact.h5");
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_regions, 3);
    assert_string_equal(m.region_names[1], "solve");
    sp_model_clear(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intact_file_reads),
        cmocka_unit_test(length_shorter_than_its_object),
        cmocka_unit_test(index_not_in_the_collection),
        cmocka_unit_test(length_over_the_cap),
        cmocka_unit_test(address_past_the_file),
        cmocka_unit_test(object_past_its_collection),
        cmocka_unit_test(free_space_of_zero_bytes),
        cmocka_unit_test(fuzzer_finds_are_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
