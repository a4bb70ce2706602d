/*
 * Values a reader used to accept without a word (issue 10 item 12,
 * docs/robustness.md "Impossible values"): each is damage now, with one
 * message naming the value, the same for every command since they all read
 * through sp_read(). The files are the format tests' basic profile and
 * schema-1 files built with their helpers, then edited.
 */
#include <hdf5.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../format/format_support.h"

#define INDEX "/rank_region_index/"

/* The basic profile's rows: totals 600, 110, 900 and 10 ns. */
static void exclusive_beyond_total_is_damage(void **state) {
    (void)state;
    const char *path = fs_path("exclusive.h5");
    fs_write_basic(path);
    const int64_t fits[] = {600, 0, 900, 10}; /* equal to the total is fine */
    fs_replace_ints(path, INDEX "exclusive_totals", H5T_STD_I64LE, fits, 4);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.rows[0].exclusive_total, 600);
    sp_model_clear(&m);
    const int64_t beyond[] = {600, 0, 900, 1000000000000000};
    fs_replace_ints(path, INDEX "exclusive_totals", H5T_STD_I64LE, beyond, 4);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "row 3 of /rank_region_index: exclusive total 1000000000000000 ns exceeds "
                    "the row's total 10 ns");
}

/* A schema-1 file: rank 0, region "a", one call [10, end). */
static const char *legacy_file(const char *name, int64_t end) {
    const char *path = fs_path(name);
    fs_write_empty_hdf5(path);
    fs_set_attr_int(path, "/", "scope_profiler_schema", 1);
    fs_make_group(path, "/metadata");
    const int64_t start = 10;
    fs_replace_ints(path, "/rank0/regions/a/start_times", H5T_STD_I64LE, &start, 1);
    fs_replace_ints(path, "/rank0/regions/a/end_times", H5T_STD_U64LE, &end, 1);
    return path;
}

/* Stores a raw unsigned value in an existing one-element dataset. */
static void store_u64(const char *path, const char *dataset, uint64_t value) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT);
    assert_true(H5Dwrite(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
}

static void end_time_beyond_int64_is_damage(void **state) {
    (void)state;
    const char *path = legacy_file("legacy_end.h5", 30);
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_events, 1);
    assert_int_equal(m.durations[0], 20);
    sp_model_clear(&m);
    /* HDF5 would clamp this to INT64_MAX: a call of 292 years */
    store_u64(path, "/rank0/regions/a/end_times", UINT64_MAX);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "row 0 of /rank0/regions/a/end_times holds 18446744073709551615, beyond the "
                    "int64 range");
    store_u64(path, "/rank0/regions/a/end_times", (uint64_t)INT64_MAX + 1);
    fs_expect_error(path, SP_ERR_DAMAGED, "holds 9223372036854775808, beyond the int64 range");
}

static void malformed_rank_groups_are_damage(void **state) {
    (void)state;
    static const char *const bad[] = {"rank-1", "rank+1", "rank01", "rank00"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32], group[32], needle[96];
        snprintf(name, sizeof name, "legacy_%zu.h5", i);
        snprintf(group, sizeof group, "/%s", bad[i]);
        const char *path = legacy_file(name, 30);
        fs_make_group(path, group);
        snprintf(needle, sizeof needle, "group %s is not a rank group: ranks are named rank<N>",
                 group);
        fs_expect_error(path, SP_ERR_DAMAGED, needle);
    }
    /* other names that merely start with "rank" are not rank groups at all */
    const char *path = legacy_file("legacy_other.h5", 30);
    fs_make_group(path, "/ranking");
    fs_make_group(path, "/rank_notes");
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_rows, 1);
    sp_model_clear(&m);
}

int main(void) {
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exclusive_beyond_total_is_damage),
        cmocka_unit_test(end_time_beyond_int64_is_damage),
        cmocka_unit_test(malformed_rank_groups_are_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
