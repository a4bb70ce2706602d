/*
 * A large index (131,200 rows: 656 ranks x 200 regions) read through the
 * reader's own chunk decoder (issue 29 item 6): the summary_statistics
 * records and the fixed-length string columns come back exactly as
 * written; a damaged chunk of either is named as the decoder names it,
 * which shows that the decoder, not HDF5, read them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "format/reader.h"
#include "format/writer.h"
#include "format_support.h"

#define INDEX   "/rank_region_index/"
#define RANKS   656u
#define REGIONS 200u

static const char *tag_of(size_t row) {
    return row % 7 == 0 ? "[\"solver\"]" : "[]";
}

static const char *file_of(size_t row) {
    return row % 3 == 0 ? "solver.c" : row % 3 == 1 ? "io.c" : "";
}

static void large_model(sp_model *m) {
    char **names = malloc(REGIONS * sizeof *names);
    for (uint32_t g = 0; g < REGIONS; g++) {
        names[g] = malloc(16);
        snprintf(names[g], 16, "region_%u", g);
    }
    fs_model_init(m, (const char *const *)names, REGIONS);
    for (uint32_t g = 0; g < REGIONS; g++)
        free(names[g]);
    free(names);
    for (uint32_t r = 0; r < RANKS; r++)
        for (uint32_t g = 0; g < REGIONS; g++) {
            int64_t start[2] = {1000 + 10 * (int64_t)g, 5000 + 10 * (int64_t)g};
            int64_t duration[2] = {1 + (int64_t)((r * 31 + g) % 9), 2 + (int64_t)(r % 5)};
            fs_model_add_row(m, r, g, start, duration, 2);
            sp_model_row *row = &m->rows[m->num_rows - 1];
            free(row->tags);
            free(row->source_file);
            row->tags = sp_strdup(tag_of(m->num_rows - 1));
            row->source_file = sp_strdup(file_of(m->num_rows - 1));
        }
}

static const char *large_file(const char *name) {
    const char *path = fs_path(name);
    sp_model m;
    large_model(&m);
    sp_error err;
    if (sp_write_model(&m, path, NULL, &err)) fail_msg("writing %s: %s", path, err.message);
    sp_model_clear(&m);
    return path;
}

static void test_records_and_strings_as_written(void **state) {
    (void)state;
    const char *path = large_file("large.h5");
    sp_model want, got;
    large_model(&want);
    fs_read_ok(path, &got);
    assert_int_equal(got.num_rows, want.num_rows);
    for (size_t i = 0; i < want.num_rows; i++) {
        const sp_model_row *a = &got.rows[i], *b = &want.rows[i];
        if (memcmp(&a->stats, &b->stats, sizeof a->stats) != 0)
            fail_msg("row %zu: the statistics differ (total %lld vs %lld)", i,
                     (long long)a->stats.total, (long long)b->stats.total);
        assert_string_equal(a->tags, tag_of(i));
        assert_string_equal(a->source_file, file_of(i));
    }
    sp_model_clear(&got);
    sp_model_clear(&want);
}

/* Replaces the first stored chunk of dataset with bytes that do not inflate. */
static void damage_first_chunk(const char *path, const char *dataset) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT);
    assert_true(ds >= 0);
    hsize_t offset = 0, size = 0;
    assert_true(H5Dget_chunk_storage_size(ds, &offset, &size) >= 0);
    unsigned char *junk = malloc(size);
    for (hsize_t i = 0; i < size; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    assert_true(H5Dwrite_chunk(ds, H5P_DEFAULT, 0, &offset, (size_t)size, junk) >= 0);
    free(junk);
    H5Dclose(ds);
    H5Fclose(f);
}

static void test_damaged_records_named_by_the_decoder(void **state) {
    (void)state;
    const char *path = large_file("damaged_stats.h5");
    damage_first_chunk(path, INDEX "summary_statistics");
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "cannot read " INDEX "summary_statistics: its chunk of values 0-");
}

static void test_damaged_strings_named_by_the_decoder(void **state) {
    (void)state;
    const char *path = large_file("damaged_tags.h5");
    damage_first_chunk(path, INDEX "tags");
    fs_expect_error(path, SP_ERR_DAMAGED, "cannot read " INDEX "tags: its chunk of values 0-");
}

/* The calls are decoded on several threads (262,400 events: several blocks);
 * the damage reported is the first row's, as a serial decode finds it. */
static void test_first_damaged_row_reported(void **state) {
    (void)state;
    sp_model m;
    large_model(&m);
    int64_t *durations = malloc(m.num_events * sizeof *durations);
    memcpy(durations, m.durations, m.num_events * sizeof *durations);
    const char *path = large_file("negative_late.h5");
    durations[2 * 120000 + 1] = -9; /* row 120,000: rank 600, region_0, call 1 */
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, durations, m.num_events);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "call 1 of region \"region_0\" on rank 600 has a negative duration (-9 ns)");
    path = large_file("negative_both.h5");
    durations[2 * 100 + 1] = -7; /* row 100: rank 0, region_100, call 1 */
    fs_replace_ints(path, "/events/durations", H5T_STD_I64LE, durations, m.num_events);
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "call 1 of region \"region_100\" on rank 0 has a negative duration (-7 ns)");
    free(durations);
    sp_model_clear(&m);
}

/* source_texts fails after source_files was read in the same pass over the
 * rows: the values read go into the rows all the same (they share a buffer
 * only the model frees: ASan and valgrind see it freed once). */
static void test_damaged_second_string_column(void **state) {
    (void)state;
    const char *path = large_file("damaged_texts.h5");
    damage_first_chunk(path, INDEX "source_texts");
    fs_expect_error(path, SP_ERR_DAMAGED,
                    "cannot read " INDEX "source_texts: its chunk of values 0-");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_damaged_row_reported),
        cmocka_unit_test(test_damaged_second_string_column),
        cmocka_unit_test(test_records_and_strings_as_written),
        cmocka_unit_test(test_damaged_records_named_by_the_decoder),
        cmocka_unit_test(test_damaged_strings_named_by_the_decoder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
