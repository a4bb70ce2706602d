/*
 * The four reference profiles (tests/fixtures), read with sp_read(), against
 * what the Python package reports (X.expected.json): summary rows and their
 * order, per-rank values, region_statistics numbers, metadata, and the
 * summary table rows reproducing X.table.txt. Relative tolerance 1e-9; the
 * number of values that differ at all from Python is printed (expected 0).
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

#include "analysis/analysis.h"
#include "model/results_model.h"
#include "table_text.h"

typedef struct check_state {
    const char *stem;
    int values, inexact;
} check_state;

static json_object *member(json_object *obj, const char *key) {
    json_object *value = NULL;
    if (!json_object_object_get_ex(obj, key, &value)) fail_msg("expected.json lacks \"%s\"", key);
    return value;
}

static void check_double(check_state *s, const char *what, double got, json_object *want) {
    if (!want || json_object_get_type(want) == json_type_null)
        fail_msg("%s %s: expected null, got %.17g", s->stem, what, got);
    double w = json_object_get_double(want);
    s->values++;
    if (got == w) return;
    s->inexact++;
    if (!(fabs(got - w) <= 1e-9 * fmax(fabs(got), fabs(w))))
        fail_msg("%s %s: got %.17g, want %.17g", s->stem, what, got, w);
}

static void check_int(check_state *s, const char *what, int64_t got, json_object *want) {
    s->values++;
    if (got != json_object_get_int64(want))
        fail_msg("%s %s: got %lld, want %lld", s->stem, what, (long long)got,
                 (long long)json_object_get_int64(want));
}

static sp_results *open_fixture(const char *stem, json_object **expected) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.expected.json", SP_FIXTURES_DIR, stem);
    *expected = json_object_from_file(path);
    assert_non_null(*expected);
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    sp_error err = {0};
    sp_results *r = sp_read(path, &err);
    if (!r) fail_msg("%s: %s", path, err.message);
    return r;
}

static void check_names_and_ranks(check_state *s, const sp_results *r, json_object *exp) {
    json_object *names = member(exp, "region_names");
    assert_int_equal(sp_results_num_regions(r), json_object_array_length(names));
    for (size_t i = 0; i < json_object_array_length(names); i++)
        assert_string_equal(sp_results_region_name(r, i),
                            json_object_get_string(json_object_array_get_idx(names, i)));
    check_int(s, "num_ranks", (int64_t)sp_results_num_ranks(r), member(exp, "num_ranks"));
}

static void check_tags(const char *stem, const char *tags_json, json_object *want) {
    json_object *got = json_tokener_parse(tags_json);
    assert_non_null(got);
    if (!json_object_equal(got, want)) fail_msg("%s tags: got %s", stem, tags_json);
    json_object_put(got);
}

static void check_summary_row(check_state *s, const sp_summary_row *row, json_object *want) {
    char what[160];
#define D(field, key)                                                                              \
    snprintf(what, sizeof what, "summary[%s].%s", row->name, key);                                 \
    check_double(s, what, row->field, member(want, key))
    assert_string_equal(row->name, json_object_get_string(member(want, "name")));
    check_int(s, "summary.num_ranks", (int64_t)row->num_ranks, member(want, "num_ranks"));
    check_int(s, "summary.num_calls", (int64_t)row->num_calls, member(want, "num_calls"));
    D(total_duration, "total_duration");
    D(inclusive_duration, "inclusive_duration");
    D(exclusive_duration, "exclusive_duration");
    D(average_duration, "average_duration");
    D(min_duration, "min_duration");
    D(max_duration, "max_duration");
    D(first_duration, "first_duration");
    D(last_duration, "last_duration");
    D(std_duration, "std_duration");
    D(p50_duration, "p50_duration");
    D(p95_duration, "p95_duration");
    D(p99_duration, "p99_duration");
    D(p50_duration, "p50");
    D(p95_duration, "p95");
    D(p99_duration, "p99");
    D(rank_imbalance, "rank_imbalance");
    D(rank_imbalance_pct, "rank_imbalance_pct");
    D(rank_imbalance_pct, "imbalance");
#undef D
    check_tags(s->stem, row->tags, member(want, "tags"));
    assert_true(row->has_percentiles);
    assert_true(row->has_exclusive);
}

static void check_summary(check_state *s, const sp_results *r, json_object *exp) {
    sp_error err = {0};
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    if (!rows) fail_msg("%s: %s", s->stem, err.message);
    json_object *want = member(exp, "summary");
    assert_int_equal(rows->count, json_object_array_length(want));
    for (size_t i = 0; i < rows->count; i++)
        check_summary_row(s, &rows->rows[i], json_object_array_get_idx(want, i));
    sp_summary_rows_free(rows);
}

static void check_rank_summary(check_state *s, const char *name, const sp_summary *got,
                               json_object *want) {
    char what[160];
#define D(field)                                                                                   \
    snprintf(what, sizeof what, "rank0_summary[%s].%s", name, #field);                             \
    check_double(s, what, got->field, member(want, #field))
    check_int(s, "rank0_summary.num_calls", (int64_t)got->num_calls, member(want, "num_calls"));
    D(total_duration);
    D(inclusive_duration);
    D(exclusive_duration);
    D(average_duration);
    D(min_duration);
    D(max_duration);
    D(first_duration);
    D(last_duration);
    D(std_duration);
#undef D
}

static void check_rank_dict(check_state *s, const sp_mpi_region *mr, const char *key,
                            const double *values, json_object *want) {
    char what[160], rank[16];
    assert_int_equal(json_object_object_length(want), sp_mpi_region_num_ranks(mr));
    for (size_t i = 0; i < sp_mpi_region_num_ranks(mr); i++) {
        snprintf(rank, sizeof rank, "%u", (unsigned)sp_mpi_region_rank_id(mr, i));
        snprintf(what, sizeof what, "per_rank[%s].%s[%s]", sp_mpi_region_name(mr), key, rank);
        check_double(s, what, values[i], member(want, rank));
    }
}

static void check_rank0(check_state *s, const sp_mpi_region *mr, json_object *want) {
    sp_error err = {0};
    const sp_rank_region *rr = sp_mpi_region_rank(mr, 0, &err);
    assert_non_null(rr);
    size_t n = sp_rank_region_num_calls(rr);
    double *d = calloc(n + 1, sizeof *d);
    assert_int_equal(sp_rank_region_durations(rr, d, n), SP_OK);
    json_object *durations = member(want, "rank0_durations");
    assert_int_equal(n, json_object_array_length(durations));
    for (size_t i = 0; i < n; i++)
        check_double(s, "rank0_durations", d[i], json_object_array_get_idx(durations, i));
    free(d);
    sp_summary sum;
    assert_int_equal(sp_rank_region_get_summary(rr, &sum, &err), SP_OK);
    check_rank_summary(s, sp_mpi_region_name(mr), &sum, member(want, "rank0_summary"));
}

static void check_per_rank(check_state *s, const sp_results *r, json_object *exp) {
    json_object_object_foreach(member(exp, "per_rank"), name, want) {
        sp_error err = {0};
        const sp_mpi_region *mr = sp_results_get(r, name, &err);
        assert_non_null(mr);
        size_t n = sp_mpi_region_num_ranks(mr);
        json_object *ranks = member(want, "ranks");
        assert_int_equal(n, json_object_array_length(ranks));
        uint64_t *calls = calloc(n, sizeof *calls);
        double *v = calloc(n, sizeof *v);
        assert_int_equal(sp_mpi_region_num_calls_per_rank(mr, calls, n), n);
        for (size_t i = 0; i < n; i++) {
            check_int(s, "ranks", sp_mpi_region_rank_id(mr, i),
                      json_object_array_get_idx(ranks, i));
            v[i] = (double)calls[i];
        }
        check_rank_dict(s, mr, "num_calls_per_rank", v, member(want, "num_calls_per_rank"));
        sp_mpi_region_total_durations(mr, v, n);
        check_rank_dict(s, mr, "total_durations", v, member(want, "total_durations"));
        sp_mpi_region_average_durations(mr, v, n);
        check_rank_dict(s, mr, "average_durations", v, member(want, "average_durations"));
        sp_mpi_region_max_durations(mr, v, n);
        check_rank_dict(s, mr, "max_durations", v, member(want, "max_durations"));
        free(calls);
        free(v);
        check_rank0(s, mr, want);
    }
}

/* The per-rank summary rows agree with each rank's get_summary(). */
static void check_per_rank_rows(const check_state *s, const sp_results *r) {
    sp_error err = {0};
    sp_summary_rows *rows = sp_results_summary(r, NULL, 1, &err);
    assert_non_null(rows);
    size_t k = 0, nreg;
    const sp_mpi_region **regions = sp_results_get_regions(r, NULL, &nreg, &err);
    for (size_t i = 0; i < nreg; i++) {
        for (size_t j = 0; j < sp_mpi_region_num_ranks(regions[i]); j++, k++) {
            const sp_summary_row *row = &rows->rows[k];
            const sp_rank_region *rr =
                sp_mpi_region_rank(regions[i], sp_mpi_region_rank_id(regions[i], j), &err);
            sp_summary sum;
            assert_int_equal(sp_rank_region_get_summary(rr, &sum, &err), SP_OK);
            assert_string_equal(row->name, sp_mpi_region_name(regions[i]));
            assert_int_equal(row->rank, sp_rank_region_rank(rr));
            if (row->total_duration != sum.total_duration ||
                row->std_duration != sum.std_duration ||
                row->exclusive_duration != sum.exclusive_duration)
                fail_msg("%s: per-rank row %zu differs from get_summary()", s->stem, k);
            assert_true(row->p50_duration <= row->p95_duration);
            assert_true(row->p95_duration <= row->p99_duration);
            assert_true(row->p99_duration <= row->max_duration);
        }
    }
    assert_int_equal(k, rows->count);
    sp_region_list_free(regions);
    sp_summary_rows_free(rows);
}

static void check_pool(check_state *s, const char *what, const sp_pool_stats *p,
                       json_object *want) {
    char key[200];
    check_int(s, what, (int64_t)p->count, member(want, "count"));
    if (p->count == 0) return;
#define D(field, name)                                                                             \
    snprintf(key, sizeof key, "%s.%s", what, name);                                                \
    check_double(s, key, p->field, member(want, name))
    D(average, "average_duration_seconds");
    D(min, "min_duration_seconds");
    D(max, "max_duration_seconds");
    D(first, "first_duration_seconds");
    D(last, "last_duration_seconds");
    D(std, "std_duration_seconds");
    D(total, "total_duration_seconds");
#undef D
}

static void check_region_statistics(check_state *s, const sp_results *r, json_object *exp) {
    sp_error err = {0};
    size_t nreg, i = 0;
    const sp_mpi_region **regions = sp_results_get_regions(r, NULL, &nreg, &err);
    assert_non_null(regions);
    json_object *stats = member(exp, "region_statistics");
    assert_int_equal(nreg, json_object_object_length(stats));
    json_object_object_foreach(stats, name, want) {
        assert_string_equal(sp_mpi_region_name(regions[i]), name); /* first-start order */
        sp_pool_stats p;
        assert_int_equal(sp_region_pool_stats(regions[i], NULL, 0, &p, &err), SP_OK);
        char what[160];
        snprintf(what, sizeof what, "region_statistics[%s]", name);
        check_pool(s, what, &p, want);
        json_object_object_foreach(member(want, "per_rank"), rank, rank_want) {
            uint32_t k = (uint32_t)strtoul(rank, NULL, 10);
            assert_int_equal(sp_region_pool_stats(regions[i], &k, 1, &p, &err), SP_OK);
            snprintf(what, sizeof what, "region_statistics[%s].per_rank[%s]", name, rank);
            check_pool(s, what, &p, rank_want);
        }
        i++;
    }
    sp_region_list_free(regions);
}

static void check_metadata(const check_state *s, const sp_results *r, json_object *exp) {
    json_object *meta = member(exp, "metadata");
    assert_int_equal(sp_results_num_metadata(r), json_object_object_length(meta));
    size_t i = 0;
    json_object_object_foreach(meta, key, want) {
        sp_metadata_item item;
        assert_true(sp_results_metadata_at(r, i++, &item));
        assert_string_equal(item.key, key);
        switch (item.type) {
        case SP_VALUE_INT:
            assert_int_equal(item.int_value, json_object_get_int64(want));
            break;
        case SP_VALUE_FLOAT:
            assert_true(item.float_value == json_object_get_double(want));
            break;
        case SP_VALUE_STRING:
            assert_string_equal(item.string_value, json_object_get_string(want));
            break;
        case SP_VALUE_STRING_LIST:
            assert_int_equal(item.list_len, json_object_array_length(want));
            for (size_t k = 0; k < item.list_len; k++)
                assert_string_equal(item.list[k],
                                    json_object_get_string(json_object_array_get_idx(want, k)));
            break;
        }
    }
    (void)s;
}

static void check_table(const check_state *s, const sp_results *r) {
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    char *got = tt_render_default(&rows);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.table.txt", SP_FIXTURES_DIR, s->stem);
    char *want = tt_read_file(path);
    assert_non_null(want);
    if (strcmp(got, want) != 0) fail_msg("%s table:\n%s\nwant:\n%s", s->stem, got, want);
    assert_false(rows.has_session_total);
    free(got);
    free(want);
    sp_table_rows_free(&rows);
}

static void check_fixture(const char *stem) {
    json_object *exp;
    sp_results *r = open_fixture(stem, &exp);
    check_state s = {stem, 0, 0};
    check_names_and_ranks(&s, r, exp);
    check_summary(&s, r, exp);
    check_per_rank(&s, r, exp);
    check_per_rank_rows(&s, r);
    check_region_statistics(&s, r, exp);
    check_metadata(&s, r, exp);
    check_table(&s, r);
    printf("  %s: %d values checked, %d not bit-identical to Python\n", stem, s.values, s.inexact);
    json_object_put(exp);
    sp_results_free(r);
}

static void test_py_tutorial2(void **state) {
    (void)state;
    check_fixture("py_tutorial2");
}

static void test_c_schema2(void **state) {
    (void)state;
    check_fixture("c_schema2");
}

static void test_multirank_schema3(void **state) {
    (void)state;
    check_fixture("multirank_schema3");
}

static void test_legacy_schema1(void **state) {
    (void)state;
    check_fixture("legacy_schema1");
}

/* py_tutorial2 stores exclusive totals; rebuilding them gives the same values. */
static void test_stored_exclusive_equals_rebuilt(void **state) {
    (void)state;
    json_object *exp;
    sp_results *r = open_fixture("py_tutorial2", &exp);
    const sp_model *m = sp_results_model(r);
    for (size_t i = 0; i < m->num_rows; i++)
        assert_true(m->rows[i].exclusive_total >= 0);
    sp_results *rebuilt;
    {
        char path[512];
        snprintf(path, sizeof path, "%s/py_tutorial2.h5", SP_FIXTURES_DIR);
        sp_error err = {0};
        rebuilt = sp_read(path, &err);
        assert_non_null(rebuilt);
        sp_model *mm = (sp_model *)sp_results_model(rebuilt);
        mm->rows[0].exclusive_total = -1; /* forces the call tree */
    }
    for (size_t i = 0; i < sp_results_num_regions(r); i++) {
        sp_error err = {0};
        double a = sp_mpi_region_exclusive_duration(sp_results_region_at(r, i), &err);
        double b = sp_mpi_region_exclusive_duration(sp_results_region_at(rebuilt, i), &err);
        assert_true(a == b);
    }
    sp_results_free(rebuilt);
    sp_results_free(r);
    json_object_put(exp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_py_tutorial2),
        cmocka_unit_test(test_c_schema2),
        cmocka_unit_test(test_multirank_schema3),
        cmocka_unit_test(test_legacy_schema1),
        cmocka_unit_test(test_stored_exclusive_equals_rebuilt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
