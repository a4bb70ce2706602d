/*
 * Round trips: a model written with the library's writer (schema 3) reads
 * back identical, field by field: events, rows, statistics, awkward
 * strings, metadata of every type in order, threads, clock offsets, an
 * empty profile, and compressed as well as uncompressed event columns.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "format/writer.h"
#include "format_support.h"

static void assert_same_double(double a, double b) {
    if (isnan(a) || isnan(b))
        assert_true(isnan(a) && isnan(b));
    else
        assert_memory_equal(&a, &b, sizeof a); /* bit for bit, -0.0 included */
}

static void assert_same_stats(const sp_row_stats *a, const sp_row_stats *b) {
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->minimum, b->minimum);
    assert_int_equal(a->maximum, b->maximum);
    assert_int_equal(a->first, b->first);
    assert_int_equal(a->last, b->last);
    assert_int_equal(a->start_minimum, b->start_minimum);
    assert_int_equal(a->end_maximum, b->end_maximum);
    assert_int_equal(a->gpu_count, b->gpu_count);
    assert_int_equal(a->gpu_total, b->gpu_total);
    assert_same_double(a->mean, b->mean);
    assert_same_double(a->m2, b->m2);
}

static void assert_same_row(const sp_model_row *a, const sp_model_row *b) {
    assert_int_equal(a->region, b->region);
    assert_int_equal(a->rank, b->rank);
    assert_int_equal(a->offset, b->offset);
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->source_line, b->source_line);
    assert_int_equal(a->exclusive_total, b->exclusive_total);
    assert_string_equal(a->source_file, b->source_file);
    assert_string_equal(a->source_text, b->source_text);
    assert_string_equal(a->tags, b->tags);
    assert_string_equal(a->event_metadata, b->event_metadata);
    assert_int_equal(a->has_stats, b->has_stats);
    if (a->has_stats) assert_same_stats(&a->stats, &b->stats);
    assert_int_equal(a->has_message_bytes, b->has_message_bytes);
    assert_int_equal(a->message_bytes, b->message_bytes);
}

static void assert_same_column(const int64_t *a, const int64_t *b, size_t n) {
    if (!a || !b) {
        assert_true(!a && !b);
        return;
    }
    for (size_t i = 0; i < n; i++)
        assert_int_equal(a[i], b[i]);
}

static void assert_same_meta(const sp_meta_entry *a, const sp_meta_entry *b) {
    assert_string_equal(a->key, b->key);
    assert_int_equal(a->type, b->type);
    switch (a->type) {
    case SP_META_INT:
        assert_int_equal(a->i, b->i);
        break;
    case SP_META_FLOAT:
        assert_same_double(a->f, b->f);
        break;
    case SP_META_STRING:
        assert_string_equal(a->s, b->s);
        break;
    case SP_META_STRING_LIST:
        assert_int_equal(a->list_len, b->list_len);
        for (size_t i = 0; i < a->list_len; i++)
            assert_string_equal(a->list[i], b->list[i]);
        break;
    }
}

static void assert_same_thread(const sp_thread_info *a, const sp_thread_info *b) {
    assert_int_equal(a->rank, b->rank);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->ident, b->ident);
    assert_int_equal(a->native_id, b->native_id);
    assert_int_equal(a->daemon, b->daemon);
    assert_int_equal(a->start_ns, b->start_ns);
    assert_int_equal(a->end_ns, b->end_ns);
    assert_int_equal(a->cpu_ns, b->cpu_ns);
    assert_string_equal(a->name, b->name);
}

static void assert_same_model(const sp_model *a, const sp_model *b) {
    assert_int_equal(b->schema, 3);
    assert_int_equal(a->layout, b->layout);
    assert_int_equal(a->num_regions, b->num_regions);
    for (size_t i = 0; i < a->num_regions; i++)
        assert_string_equal(a->region_names[i], b->region_names[i]);
    assert_int_equal(a->num_rows, b->num_rows);
    for (size_t i = 0; i < a->num_rows; i++)
        assert_same_row(&a->rows[i], &b->rows[i]);
    assert_int_equal(a->num_events, b->num_events);
    if (a->num_events) { /* without events either may be NULL */
        assert_same_column(a->starts, b->starts, a->num_events);
        assert_same_column(a->durations, b->durations, a->num_events);
    }
    assert_same_column(a->thread_ids, b->thread_ids, a->num_events);
    assert_null(b->call_ids); /* the writer stores none: absent, not -1 */
    assert_null(b->parent_ids);
    assert_int_equal(a->num_meta, b->num_meta);
    for (size_t i = 0; i < a->num_meta; i++)
        assert_same_meta(&a->meta[i], &b->meta[i]);
    assert_int_equal(a->num_threads, b->num_threads);
    assert_true((a->threads == NULL) == (b->threads == NULL));
    for (size_t i = 0; i < a->num_threads; i++)
        assert_same_thread(&a->threads[i], &b->threads[i]);
    assert_int_equal(a->num_clock_offsets, b->num_clock_offsets);
    assert_true((a->clock_offsets == NULL) == (b->clock_offsets == NULL));
    for (size_t i = 0; i < a->num_clock_offsets; i++) {
        assert_int_equal(a->clock_offsets[i].rank, b->clock_offsets[i].rank);
        assert_int_equal(a->clock_offsets[i].offset_ns, b->clock_offsets[i].offset_ns);
        assert_int_equal(a->clock_offsets[i].uncertainty_ns, b->clock_offsets[i].uncertainty_ns);
    }
}

/* Writes m, reads it back (model and public API), compares; frees m. */
static void round_trip(sp_model *m, const char *name, const sp_write_options *options) {
    const char *path = fs_path(name);
    sp_error err;
    if (sp_write_model(m, path, options, &err)) fail_msg("write: %s", err.message);
    sp_model back;
    fs_read_ok(path, &back);
    assert_same_model(m, &back);
    sp_model_clear(&back);
    sp_results *r = sp_read(path, &err);
    if (!r) fail_msg("sp_read: %s", err.message);
    assert_string_equal(sp_results_path(r), path);
    const sp_model *aligned = sp_results_model(r);
    if (m->num_clock_offsets == 0) {
        assert_same_model(m, aligned);
    } else {
        /* the results put every rank on rank 0's clock: starts move by the offset */
        for (size_t i = 0; i < m->num_rows; i++) {
            int64_t offset = 0;
            for (size_t k = 0; k < m->num_clock_offsets; k++)
                if (m->clock_offsets[k].rank == m->rows[i].rank)
                    offset = m->clock_offsets[k].offset_ns;
            for (uint64_t e = 0; e < m->rows[i].count; e++) {
                uint64_t at = m->rows[i].offset + e;
                assert_int_equal(aligned->starts[at], m->starts[at] + offset);
                assert_int_equal(aligned->durations[at], m->durations[at]);
            }
        }
    }
    sp_results_free(r);
    sp_model_clear(m);
}

static void replace(char **slot, const char *value) {
    free(*slot);
    *slot = sp_strdup(value);
}

static void test_basic(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    round_trip(&m, "basic.h5", NULL);
}

static const char *const awkward[] = {
    "io/write \"x\"", "naïve ∑ région\n2", "with spaces ", "",        "tab\there", "back\\slash",
    "日本語",         "emoji 😀",           "a/b/c",        "quote's",
};
#define NUM_AWKWARD (sizeof awkward / sizeof *awkward)

static void test_awkward_strings(void **state) {
    (void)state;
    sp_model m;
    fs_model_init(&m, awkward, NUM_AWKWARD);
    for (uint32_t i = 0; i < NUM_AWKWARD; i++) {
        int64_t starts[] = {10 + i, 20 + i}, durations[] = {1, 2};
        fs_model_add_row(&m, 0, i, starts, durations, 2);
        sp_model_row *r = &m.rows[i];
        replace(&r->source_file, awkward[(i + 1) % NUM_AWKWARD]);
        replace(&r->source_text, awkward[(i + 2) % NUM_AWKWARD]);
        replace(&r->tags, "[\"solver\", \"io/\\\"x\\\"\", \"ü\"]");
        replace(&r->event_metadata, "[{\"step\": 1}, {\"note\": \"naïve\\n\"}]");
        r->source_line = i * 7;
        r->exclusive_total = i == 3 ? -1 : (int64_t)(i % 3); /* at most the total, 3 */
    }
    round_trip(&m, "awkward.h5", NULL);
}

static void test_metadata_types_in_order(void **state) {
    (void)state;
    sp_model m;
    fs_model_init(&m, NULL, 0);
    const char *modules[] = {"gcc/12", "openmpi/4.1 \"x\"", "", "naïve\n"};
    sp_model_meta_string(&m, "zeta", "last letter first");
    sp_model_meta_int(&m, "alpha", INT64_MIN);
    sp_model_meta_int(&m, "max", INT64_MAX);
    sp_model_meta_float(&m, "pi", 3.141592653589793);
    sp_model_meta_float(&m, "negative zero", -0.0);
    sp_model_meta_float(&m, "tiny", 4.9e-324);
    sp_model_meta_float(&m, "infinite", INFINITY);
    sp_model_meta_float(&m, "not a number", NAN);
    sp_model_meta_list(&m, "modules", modules, 4);
    sp_model_meta_list(&m, "no modules", NULL, 0);
    sp_model_meta_string(&m, "empty", "");
    sp_model_meta_string(&m, "unicode ∑", "naïve ∑ région\n2");
    sp_model_meta_int(&m, "0 starts with a digit", 0);
    round_trip(&m, "metadata.h5", NULL);
}

static void test_threads(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    m.thread_ids = malloc(m.num_events * sizeof *m.thread_ids);
    for (size_t i = 0; i < m.num_events; i++)
        m.thread_ids[i] = (int64_t)(i % 3) - 1;
    m.num_threads = 3;
    m.threads = calloc(3, sizeof *m.threads);
    for (size_t i = 0; i < 3; i++) {
        sp_thread_info *t = &m.threads[i];
        t->rank = i < 2 ? 0 : 1;
        t->index = (int64_t)i % 2;
        t->ident = 140000000000 + (int64_t)i;
        t->native_id = 4242 + (int64_t)i;
        t->daemon = i == 1;
        t->start_ns = 100 * (int64_t)i;
        t->end_ns = 100 * (int64_t)i + 50;
        t->cpu_ns = i == 2 ? -1 : 25;
        t->name = sp_strdup(i == 0 ? "MainThread" : i == 1 ? "worker ∑ \"1\"" : "");
    }
    round_trip(&m, "threads.h5", NULL);
}

static void test_clock_offsets(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    m.num_clock_offsets = 2;
    m.clock_offsets = calloc(2, sizeof *m.clock_offsets);
    m.clock_offsets[0] = (sp_clock_offset){0, 0, 0};
    m.clock_offsets[1] = (sp_clock_offset){1, -123456789, 250};
    round_trip(&m, "offsets.h5", NULL);
}

/* The MPI wrappers' byte counts: counted rows (0 included) keep their value,
 * the others stay uncounted; a model without counts writes no extension. */
static void test_message_bytes(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    assert_true(m.num_rows >= 3);
    m.rows[0].has_message_bytes = 1;
    m.rows[0].message_bytes = 2400;
    m.rows[2].has_message_bytes = 1;
    m.rows[2].message_bytes = 0;
    round_trip(&m, "bytes.h5", NULL);
    const char *path = fs_path("bytes_values.h5");
    fs_basic_model(&m);
    m.rows[1].has_message_bytes = 1;
    m.rows[1].message_bytes = INT64_MAX;
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_write_model(&m, path, NULL, &err), SP_OK);
    size_t n = 0;
    int64_t *bytes = fs_read_ints(path, "/scope_profiler_c/message_bytes/bytes", &n);
    assert_int_equal(n, m.num_rows);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(bytes[i], i == 1 ? INT64_MAX : -1);
    free(bytes);
    sp_model_clear(&m);
    fs_write_basic(path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Lexists(f, "scope_profiler_c", H5P_DEFAULT) <= 0);
    H5Fclose(f);
}

static void test_empty_profile(void **state) {
    (void)state;
    sp_model m;
    fs_model_init(&m, NULL, 0);
    round_trip(&m, "empty.h5", NULL);
}

static void test_regions_without_rows(void **state) {
    (void)state;
    static const char *const names[] = {"never called", "called"};
    sp_model m;
    fs_model_init(&m, names, 2);
    int64_t s[] = {5}, d[] = {0};
    fs_model_add_row(&m, 7, 1, s, d, 1);
    round_trip(&m, "unused_region.h5", NULL);
}

/* Calls at the very end of the int64 range, zero durations, many ranks. */
static void test_extreme_times(void **state) {
    (void)state;
    static const char *const names[] = {"edge"};
    sp_model m;
    fs_model_init(&m, names, 1);
    int64_t s0[] = {0, 0, 1}, d0[] = {0, INT64_MAX, 0};
    int64_t s1[] = {INT64_MAX - 10, INT64_MAX - 1}, d1[] = {9, 1};
    fs_model_add_row(&m, 0, 0, s0, d0, 3);
    fs_model_add_row(&m, UINT32_MAX, 0, s1, d1, 2);
    round_trip(&m, "extreme.h5", NULL);
}

static int has_deflate(const char *path, const char *dataset) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(ds);
    int found = 0;
    for (int i = 0; i < H5Pget_nfilters(dcpl); i++) {
        unsigned flags, conf;
        size_t nelem = 0;
        char name[64];
        if (H5Pget_filter2(dcpl, (unsigned)i, &flags, &nelem, NULL, sizeof name, name, &conf) ==
            H5Z_FILTER_DEFLATE)
            found = 1;
    }
    H5Pclose(dcpl);
    H5Dclose(ds);
    H5Fclose(f);
    return found;
}

static void large_model(sp_model *m, size_t per_row) {
    static const char *const names[] = {"a", "b", "c"};
    fs_model_init(m, names, 3);
    int64_t *s = malloc(per_row * sizeof *s), *d = malloc(per_row * sizeof *d);
    for (uint32_t row = 0; row < 3; row++) {
        for (size_t i = 0; i < per_row; i++) {
            s[i] = 1000000000 + (int64_t)(i * 1000 + (i * 7919) % 500) + row;
            d[i] = (int64_t)((i * 104729) % 900);
        }
        fs_model_add_row(m, row / 2, row, s, d, per_row);
    }
    free(s);
    free(d);
}

static void compression_case(sp_compression compression, int expect_deflate, const char *name) {
    sp_model m;
    large_model(&m, 7000); /* 21,000 calls: above the auto threshold */
    sp_write_options options = {compression, 6};
    const char *path = fs_path(name);
    round_trip(&m, name, &options);
    /* round_trip rewrote the same path; check the layout of what it read. */
    assert_int_equal(has_deflate(path, "/events/durations"), expect_deflate);
}

static void test_compressed(void **state) {
    (void)state;
    compression_case(SP_COMPRESSION_AUTO, 1, "auto.h5");
    compression_case(SP_COMPRESSION_GZIP, 1, "gzip.h5");
}

static void test_uncompressed(void **state) {
    (void)state;
    compression_case(SP_COMPRESSION_NONE, 0, "none.h5");
}

/* The datasets' string type is fixed-length (1) or variable (0). */
static int is_fixed_string(const char *path, const char *dataset, size_t *size) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT);
    hid_t t = H5Dget_type(ds);
    int fixed = H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0;
    *size = H5Tget_size(t);
    H5Tclose(t);
    H5Dclose(ds);
    H5Fclose(f);
    return fixed;
}

/* A large index (docs/format.md, "Index storage"): chunked columns are
 * compressed with the events' policy, short string columns are fixed-length,
 * a column with a long value stays variable-length; all read back the same. */
static void large_index_case(sp_compression compression, int expect_deflate, const char *name) {
    static const char *const names[] = {"step", "solve"};
    sp_model m;
    fs_model_init(&m, names, 2);
    int64_t s[3] = {1000, 2000, 3000}, d[3] = {500, 400, 300};
    for (uint32_t rank = 0; rank < 5000; rank++) /* 10,000 rows: every column chunked */
        for (uint32_t region = 0; region < 2; region++) {
            s[0] = 1000 + rank;
            fs_model_add_row(&m, rank, region, s, d, 3);
            sp_model_row *row = &m.rows[m.num_rows - 1];
            replace(&row->source_file, region ? "solver.c" : "main.c");
            row->source_line = 10 + region;
        }
    replace(&m.rows[7].tags, "[\"solver\", \"\u00e9\"]");
    replace(&m.rows[8].source_text, "for (int i = 0; i < n; i++) { x[i] = a * x[i] + y[i]; } /* "
                                    "longer than a fixed-length column takes */");
    sp_write_options options = {compression, 4};
    const char *path = fs_path(name);
    round_trip(&m, name, &options);
    size_t size = 0;
    assert_true(is_fixed_string(path, "/rank_region_index/tags", &size));
    assert_int_equal(size, strlen("[\"solver\", \"\u00e9\"]"));
    assert_true(is_fixed_string(path, "/rank_region_index/source_files", &size));
    assert_int_equal(size, strlen("solver.c"));
    assert_true(is_fixed_string(path, "/rank_region_index/event_metadata", &size));
    assert_int_equal(size, 2);
    assert_false(is_fixed_string(path, "/rank_region_index/source_texts", &size));
    assert_int_equal(has_deflate(path, "/rank_region_index/event_offsets"), expect_deflate);
    assert_int_equal(has_deflate(path, "/rank_region_index/summary_statistics"), expect_deflate);
    assert_int_equal(has_deflate(path, "/rank_region_index/tags"), expect_deflate);
}

static void test_large_index(void **state) {
    (void)state;
    large_index_case(SP_COMPRESSION_AUTO, 1, "index_auto.h5");
    large_index_case(SP_COMPRESSION_NONE, 0, "index_none.h5");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),         cmocka_unit_test(test_awkward_strings),
        cmocka_unit_test(test_message_bytes), cmocka_unit_test(test_metadata_types_in_order),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_clock_offsets),
        cmocka_unit_test(test_empty_profile), cmocka_unit_test(test_regions_without_rows),
        cmocka_unit_test(test_extreme_times), cmocka_unit_test(test_compressed),
        cmocka_unit_test(test_uncompressed),  cmocka_unit_test(test_large_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
