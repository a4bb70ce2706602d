/*
 * The reference profiles of tests/fixtures, written by other
 * implementations, against what the Python package reports for them
 * (X.expected.json): region names in file order, ranks, per-rank call
 * counts and totals, rank 0's durations to the nanosecond, metadata.
 */
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "format_support.h"

static json_object *load_expected(const char *stem) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.expected.json", SP_FIXTURES_DIR, stem);
    json_object *doc = json_object_from_file(path);
    if (!doc) fail_msg("cannot parse %s", path);
    return doc;
}

static json_object *member(json_object *obj, const char *key) {
    json_object *value = NULL;
    if (!json_object_object_get_ex(obj, key, &value)) fail_msg("expected.json lacks \"%s\"", key);
    return value;
}

static long region_index(const sp_model *m, const char *name) {
    for (size_t i = 0; i < m->num_regions; i++)
        if (strcmp(m->region_names[i], name) == 0) return (long)i;
    fail_msg("region \"%s\" not read", name);
    return -1;
}

static const sp_model_row *find_row(const sp_model *m, uint32_t rank, long region) {
    for (size_t i = 0; i < m->num_rows; i++)
        if (m->rows[i].rank == rank && (long)m->rows[i].region == region) return &m->rows[i];
    return NULL;
}

static int64_t ns(json_object *seconds) {
    return llround(json_object_get_double(seconds) * 1e9);
}

static void check_region_names(const sp_model *m, json_object *expected) {
    json_object *names = member(expected, "region_names");
    assert_int_equal(m->num_regions, json_object_array_length(names));
    for (size_t i = 0; i < m->num_regions; i++)
        assert_string_equal(m->region_names[i],
                            json_object_get_string(json_object_array_get_idx(names, i)));
}

static void check_num_ranks(const sp_model *m, json_object *expected) {
    size_t distinct = 0;
    for (size_t i = 0; i < m->num_rows; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= m->rows[j].rank == m->rows[i].rank;
        distinct += !seen;
    }
    assert_int_equal(distinct, json_object_get_int(member(expected, "num_ranks")));
}

static void check_ranks_of_region(const sp_model *m, long region, json_object *entry) {
    json_object *ranks = member(entry, "ranks");
    size_t with_rows = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        with_rows += (long)m->rows[i].region == region;
    assert_int_equal(with_rows, json_object_array_length(ranks));
    json_object *calls = member(entry, "num_calls_per_rank");
    json_object *totals = member(entry, "total_durations");
    for (size_t i = 0; i < json_object_array_length(ranks); i++) {
        int rank = json_object_get_int(json_object_array_get_idx(ranks, i));
        const sp_model_row *row = find_row(m, (uint32_t)rank, region);
        assert_non_null(row);
        char key[16];
        snprintf(key, sizeof key, "%d", rank);
        assert_int_equal(row->count, json_object_get_int64(member(calls, key)));
        assert_int_equal(row->stats.total, ns(member(totals, key)));
    }
}

static void check_rank0_durations(const sp_model *m, long region, json_object *entry) {
    json_object *durations = NULL;
    if (!json_object_object_get_ex(entry, "rank0_durations", &durations) || !durations) return;
    const sp_model_row *row = find_row(m, 0, region);
    assert_non_null(row);
    assert_int_equal(row->count, json_object_array_length(durations));
    for (size_t i = 0; i < row->count; i++)
        assert_int_equal(m->durations[row->offset + i],
                         ns(json_object_array_get_idx(durations, i)));
}

static void check_per_rank(const sp_model *m, json_object *expected) {
    json_object_object_foreach(member(expected, "per_rank"), name, entry) {
        long region = region_index(m, name);
        check_ranks_of_region(m, region, entry);
        check_rank0_durations(m, region, entry);
    }
}

static void check_meta_value(const sp_meta_entry *e, json_object *value) {
    switch (json_object_get_type(value)) {
    case json_type_int:
        assert_int_equal(e->type, SP_META_INT);
        assert_int_equal(e->i, json_object_get_int64(value));
        break;
    case json_type_double:
        assert_int_equal(e->type, SP_META_FLOAT);
        assert_true(fabs(e->f - json_object_get_double(value)) <= 1e-12 * fabs(e->f));
        break;
    case json_type_string:
        assert_int_equal(e->type, SP_META_STRING);
        assert_string_equal(e->s, json_object_get_string(value));
        break;
    case json_type_array:
        assert_int_equal(e->type, SP_META_STRING_LIST);
        assert_int_equal(e->list_len, json_object_array_length(value));
        for (size_t i = 0; i < e->list_len; i++)
            assert_string_equal(e->list[i],
                                json_object_get_string(json_object_array_get_idx(value, i)));
        break;
    default:
        fail_msg("unexpected metadata type for %s", e->key);
    }
}

/* Same keys, same values, same order (the file's attribute order). */
static void check_metadata(const sp_model *m, json_object *expected) {
    json_object *meta = member(expected, "metadata");
    assert_int_equal(m->num_meta, json_object_object_length(meta));
    size_t i = 0;
    json_object_object_foreach(meta, key, value) {
        assert_string_equal(m->meta[i].key, key);
        check_meta_value(&m->meta[i], value);
        i++;
    }
}

/* Statistics from summary_statistics (or computed) agree with the events. */
static void check_stats_match_events(const sp_model *m) {
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        sp_row_stats s;
        sp_row_stats_compute(&s, m->starts + r->offset, m->durations + r->offset, r->count);
        assert_true(r->has_stats);
        assert_int_equal(r->stats.total, s.total);
        assert_int_equal(r->stats.minimum, s.minimum);
        assert_int_equal(r->stats.maximum, s.maximum);
        assert_int_equal(r->stats.first, s.first);
        assert_int_equal(r->stats.last, s.last);
        assert_int_equal(r->stats.start_minimum, s.start_minimum);
        assert_int_equal(r->stats.end_maximum, s.end_maximum);
        assert_true(fabs(r->stats.mean - s.mean) <= 1e-9 * s.mean);
        assert_true(fabs(r->stats.m2 - s.m2) <= 1e-6 * s.m2 + 1e-6);
    }
}

static void check_fixture(const char *stem, int schema) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    json_object *expected = load_expected(stem);
    long before = fs_open_ids();
    sp_error err;
    sp_results *r = sp_read(path, &err);
    if (!r) fail_msg("%s", err.message);
    assert_int_equal(fs_open_ids(), before);
    assert_string_equal(sp_results_path(r), path);
    const sp_model *m = sp_results_model(r);
    assert_int_equal(m->schema, schema);
    assert_int_equal(m->layout, SP_LAYOUT_COLUMNAR);
    assert_int_equal(sp_model_check_index(m, path, &err), SP_OK);
    check_region_names(m, expected);
    check_num_ranks(m, expected);
    check_per_rank(m, expected);
    check_metadata(m, expected);
    check_stats_match_events(m);
    sp_results_free(r);
    json_object_put(expected);
}

static void test_py_tutorial2(void **state) {
    (void)state;
    check_fixture("py_tutorial2", 3);
}

static void test_c_schema2(void **state) {
    (void)state;
    check_fixture("c_schema2", 2);
}

static void test_multirank_schema3(void **state) {
    (void)state;
    check_fixture("multirank_schema3", 3);
}

static void test_legacy_schema1(void **state) {
    (void)state;
    check_fixture("legacy_schema1", 1);
}

/* The Python package's schema 3 stores call and parent ids; schema 2's C backend does not. */
static void test_optional_columns(void **state) {
    (void)state;
    char path[512];
    sp_model m;
    snprintf(path, sizeof path, "%s/py_tutorial2.h5", SP_FIXTURES_DIR);
    fs_read_ok(path, &m);
    assert_non_null(m.call_ids);
    assert_non_null(m.parent_ids);
    assert_null(m.thread_ids);
    assert_null(m.threads);
    assert_string_equal(m.rows[0].source_file, "tutorial2.py");
    assert_int_equal(m.rows[0].source_line, 4);
    sp_model_clear(&m);
    snprintf(path, sizeof path, "%s/c_schema2.h5", SP_FIXTURES_DIR);
    fs_read_ok(path, &m);
    assert_null(m.call_ids);
    for (size_t i = 0; i < m.num_rows; i++)
        assert_string_equal(m.rows[i].event_metadata, "[]");
    sp_model_clear(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_py_tutorial2),      cmocka_unit_test(test_c_schema2),
        cmocka_unit_test(test_multirank_schema3), cmocka_unit_test(test_legacy_schema1),
        cmocka_unit_test(test_optional_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
