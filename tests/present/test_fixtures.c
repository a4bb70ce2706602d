/* The presenters on the reference profiles (tests/fixtures): print_summary
 * byte for byte against X.table.txt, the JSON exports against
 * X.expected.json, the summary rows as JSON and CSV against its summary and
 * per_rank entries, plus options, filters and errors. */
#include <errno.h>
#include <limits.h>
#include <math.h>
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

#include "csv_parse.h"
#include "json_compare.h"
#include "present_test_util.h"
#include "scope_profiler/results.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TOL  1e-9

static const char *const fixtures[] = {"py_tutorial2", "c_schema2", "multirank_schema3",
                                       "legacy_schema1"};

static sp_results *open_fixture(const char *stem) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    sp_error err = {SP_OK, ""};
    sp_results *r = sp_read(path, &err);
    if (!r) fprintf(stderr, "%s: %s\n", path, err.message);
    assert_non_null(r);
    return r;
}

static struct json_object *expected(const char *stem) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.expected.json", SP_FIXTURES_DIR, stem);
    struct json_object *doc = json_object_from_file(path);
    assert_non_null(doc);
    return doc;
}

static struct json_object *get(struct json_object *o, const char *key) {
    struct json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v)) fail_msg("missing key %s", key);
    return v;
}

/* print_summary into a string. */
typedef struct print_call {
    const sp_results *r;
    const sp_print_options *opt;
    sp_status st;
    sp_error err;
} print_call;

static void print_cb(FILE *f, void *arg) {
    print_call *c = arg;
    c->st = sp_print_summary(c->r, f, c->opt, &c->err);
}

static char *print_summary(const sp_results *r, const sp_print_options *opt, sp_status *st,
                           sp_error *err) {
    print_call c = {r, opt, SP_OK, {SP_OK, ""}};
    char *text = capture(print_cb, &c);
    assert_non_null(text);
    *st = c.st;
    if (err) *err = c.err;
    return text;
}

/* --- the table ------------------------------------------------------------------ */

static void test_tables_match_fixtures(void **state) {
    (void)state;
    for (size_t i = 0; i < N(fixtures); i++) {
        sp_results *r = open_fixture(fixtures[i]);
        sp_print_options opt = {0};
        opt.suppress_notes = 1;
        sp_status st;
        char *text = print_summary(r, &opt, &st, NULL);
        assert_int_equal(st, SP_OK);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s.table.txt", SP_FIXTURES_DIR, fixtures[i]);
        char *want = slurp(path);
        assert_non_null(want);
        assert_string_equal(text, want);
        free(want);
        free(text);
        sp_results_free(r);
    }
}

/* With the notes, from the fixtures directory as the Python example was made. */
static void test_notes_box_from_fixture(void **state) {
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(SP_FIXTURES_DIR), 0);
    static const char *cases[][2] = {{"py_tutorial2.h5", "tutorial_notes.txt"},
                                     {"c_schema2.h5", "cschema2_notes.txt"}};
    for (size_t i = 0; i < N(cases); i++) {
        sp_error err = {SP_OK, ""};
        sp_results *r = sp_read(cases[i][0], &err);
        assert_non_null(r);
        sp_status st;
        char *text = print_summary(r, NULL, &st, NULL);
        assert_int_equal(st, SP_OK);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/expected/%s", SP_TEST_SOURCE_DIR, cases[i][1]);
        char *want = slurp(path);
        assert_string_equal(text, want);
        free(want);
        free(text);
        sp_results_free(r);
    }
    assert_int_equal(chdir(cwd), 0);
}

static void test_default_title(void **state) {
    (void)state;
    sp_results *r = open_fixture("multirank_schema3");
    sp_print_options opt = {0};
    sp_status st;
    char *text = print_summary(r, &opt, &st, NULL);
    assert_int_equal(st, SP_OK);
    /* "synthetic - <relpath> (3 ranks)" whatever the cwd */
    assert_non_null(strstr(text, "Summary: synthetic - "));
    assert_non_null(strstr(text, "multirank_schema3.h5 (3 ranks)"));
    assert_non_null(strstr(text, "↻ Recursive rows aggregate all invocations of that region."));
    free(text);
    opt.title = "My title";
    text = print_summary(r, &opt, &st, NULL);
    assert_non_null(strstr(text, "Summary: My title "));
    free(text);
    opt.title = "";
    text = print_summary(r, &opt, &st, NULL);
    assert_non_null(strstr(text, "Summary: synthetic - "));
    free(text);
    sp_results_free(r);
}

static void test_all_columns_and_sorts(void **state) {
    (void)state;
    const char *cols[] = {"region", "ranks", "calls", "total",    "percent", "parent_percent",
                          "avg",    "min",   "max",   "first",    "last",    "std",
                          "p50",    "p95",   "p99",   "imbalance"};
    const char *sorts[] = {"start", "total", "calls", "avg", "min", "max",       "first",
                           "last",  "std",   "p50",   "p95", "p99", "imbalance", "name"};
    for (size_t i = 0; i < N(fixtures); i++) {
        sp_results *r = open_fixture(fixtures[i]);
        for (size_t s = 0; s < N(sorts); s++) {
            sp_print_options opt = {0};
            opt.columns = cols;
            opt.num_columns = N(cols);
            opt.sort = sorts[s];
            opt.suppress_notes = s % 2;
            opt.percentage_mode = s % 3 ? "coverage" : "exclusive";
            opt.ascii = s % 4 == 1;
            sp_status st;
            sp_error err;
            char *text = print_summary(r, &opt, &st, &err);
            if (st) fprintf(stderr, "%s sort=%s: %s\n", fixtures[i], sorts[s], err.message);
            assert_int_equal(st, SP_OK);
            assert_non_null(strstr(text, "imbalance [%]"));
            if (opt.ascii)
                for (const unsigned char *p = (const unsigned char *)text; *p; p++)
                    assert_true(*p < 0x80);
            free(text);
        }
        sp_results_free(r);
    }
}

static void test_filters_in_table(void **state) {
    (void)state;
    sp_results *r = open_fixture("py_tutorial2");
    const char *inc[] = {"s"};
    sp_print_options opt = {0};
    opt.filter.include = inc;
    opt.filter.num_include = 1;
    opt.suppress_notes = 1;
    sp_status st;
    char *text = print_summary(r, &opt, &st, NULL);
    assert_int_equal(st, SP_OK);
    assert_non_null(strstr(text, "setup"));
    assert_non_null(strstr(text, "solve (5x)"));
    assert_null(strstr(text, "timestep"));
    free(text);
    const char *nothing[] = {"zzz"};
    opt.filter.include = nothing;
    opt.suppress_notes = 0;
    text = print_summary(r, &opt, &st, NULL);
    assert_int_equal(st, SP_OK);
    assert_non_null(strstr(text, " (1 rank)\n  (no regions recorded)\n"));
    assert_null(strstr(text, "Info"));
    free(text);
    sp_results_free(r);
}

static void test_table_errors(void **state) {
    (void)state;
    sp_results *r = open_fixture("py_tutorial2");
    sp_print_options opt = {0};
    sp_status st;
    sp_error err;
    const char *bad[] = {"region", "bogus"};
    opt.columns = bad;
    opt.num_columns = 2;
    char *text = print_summary(r, &opt, &st, &err);
    assert_int_equal(st, SP_ERR_BAD_OPTION);
    assert_string_equal(text, "");
    assert_string_equal(
        err.message, "Unknown region summary column(s): ['bogus']. Choices: region, ranks, "
                     "calls, total, percent, parent_percent, avg, min, max, first, last, std, "
                     "p50, p95, p99, imbalance, slowest, load_balance, threads, thread_imbalance, "
                     "slowest_thread");
    free(text);
    opt.num_columns = 0;
    text = print_summary(r, &opt, &st, &err);
    assert_int_equal(st, SP_ERR_BAD_OPTION);
    assert_string_equal(err.message, "At least one region summary column must be selected.");
    free(text);
    opt.columns = NULL;
    opt.percentage_mode = "wall";
    text = print_summary(r, &opt, &st, &err);
    assert_int_equal(st, SP_ERR_BAD_OPTION);
    assert_string_equal(err.message, "percentage_mode must be 'coverage' or 'exclusive'");
    free(text);
    opt.percentage_mode = NULL;
    opt.sort = "bogus";
    text = print_summary(r, &opt, &st, &err);
    assert_int_equal(st, SP_ERR_BAD_OPTION);
    assert_string_equal(text, "");
    free(text);
    opt.sort = NULL;
    const char *badpat[] = {"("};
    opt.filter.include = badpat;
    opt.filter.num_include = 1;
    text = print_summary(r, &opt, &st, &err);
    assert_int_equal(st, SP_ERR_BAD_PATTERN);
    free(text);
    assert_int_equal(sp_print_summary(NULL, stdout, NULL, &err), SP_ERR_INVALID_ARGUMENT);
    sp_results_free(r);
}

/* --- region_statistics.json -------------------------------------------------------- */

static struct json_object *collect(const sp_results *const *runs, size_t n,
                                   const sp_stats_options *opt) {
    sp_error err = {SP_OK, ""};
    char *text = sp_collect_region_statistics(runs, n, opt, &err);
    if (!text) fprintf(stderr, "%s\n", err.message);
    assert_non_null(text);
    assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    free(text);
    return doc;
}

static void test_region_statistics_match_fixtures(void **state) {
    (void)state;
    for (size_t i = 0; i < N(fixtures); i++) {
        sp_results *r = open_fixture(fixtures[i]);
        struct json_object *want = expected(fixtures[i]);
        const sp_results *runs[] = {r};
        struct json_object *doc = collect(runs, 1, NULL);
        struct json_object *file = json_object_array_get_idx(get(doc, "files"), 0);
        assert_true(json_equal(get(file, "region_statistics"), get(want, "region_statistics"),
                               fixtures[i], TOL));
        /* the envelope around it */
        struct json_object_iterator it = json_object_iter_begin(doc);
        const char *keys[] = {"units", "filters", "common_regions", "files"};
        for (size_t k = 0; k < N(keys); k++, json_object_iter_next(&it))
            assert_string_equal(json_object_iter_peek_name(&it), keys[k]);
        assert_string_equal(json_object_to_json_string(get(doc, "units")),
                            "{ \"durations\": \"seconds\" }");
        struct json_object *filters = get(doc, "filters");
        assert_null(get(filters, "include"));
        assert_null(get(filters, "exclude"));
        assert_null(get(filters, "ranks"));
        struct json_object *common = get(doc, "common_regions");
        struct json_object *stats = get(file, "region_statistics");
        assert_int_equal(json_object_array_length(common), json_object_object_length(stats));
        size_t k = 0;
        json_object_object_foreach(stats, name, unused) {
            (void)unused;
            assert_string_equal(json_object_get_string(json_object_array_get_idx(common, k++)),
                                name);
        }
        it = json_object_iter_begin(file);
        const char *fkeys[] = {"label", "file_path", "num_ranks", "total_time_seconds",
                               "region_statistics"};
        for (k = 0; k < N(fkeys); k++, json_object_iter_next(&it))
            assert_string_equal(json_object_iter_peek_name(&it), fkeys[k]);
        assert_string_equal(json_object_get_string(get(file, "label")),
                            sp_results_display_label(r));
        char *real = realpath(sp_results_path(r), NULL);
        assert_string_equal(json_object_get_string(get(file, "file_path")), real);
        free(real);
        assert_int_equal(json_object_get_int64(get(file, "num_ranks")),
                         json_object_get_int64(get(want, "num_ranks")));
        json_object_put(doc);
        json_object_put(want);
        sp_results_free(r);
    }
}

static void test_region_statistics_total_time(void **state) {
    (void)state;
    sp_results *t = open_fixture("py_tutorial2");
    sp_results *c = open_fixture("c_schema2");
    const sp_results *runs[] = {t, c};
    struct json_object *doc = collect(runs, 2, NULL);
    struct json_object *files = get(doc, "files");
    struct json_object *tt = get(json_object_array_get_idx(files, 0), "total_time_seconds");
    assert_true(json_object_is_type(tt, json_type_double));
    assert_true(json_object_get_double(tt) == 0.0782352239998545);
    /* c_schema2 has a start time but no finalize time: null */
    assert_null(get(json_object_array_get_idx(files, 1), "total_time_seconds"));
    /* common regions: the first file's, in its order, present in both */
    assert_string_equal(json_object_to_json_string(get(doc, "common_regions")),
                        "[ \"setup\", \"timestep\", \"assemble\", \"solve\" ]");
    json_object_put(doc);
    sp_results_free(t);
    sp_results_free(c);
}

static void test_region_statistics_labels(void **state) {
    (void)state;
    sp_results *t = open_fixture("py_tutorial2");
    sp_results *m = open_fixture("multirank_schema3");
    const sp_results *runs[] = {t, m, t, m, t};
    struct json_object *doc = collect(runs, 5, NULL);
    const char *want[] = {"tutorial 2", "synthetic", "tutorial 2 (2)", "synthetic (2)",
                          "tutorial 2 (3)"};
    struct json_object *files = get(doc, "files");
    for (size_t i = 0; i < N(want); i++)
        assert_string_equal(
            json_object_get_string(get(json_object_array_get_idx(files, i), "label")), want[i]);
    json_object_put(doc);
    const char *given[] = {"a", "a"};
    sp_stats_options opt = {0};
    opt.labels = given;
    doc = collect(runs, 2, &opt);
    files = get(doc, "files");
    assert_string_equal(json_object_get_string(get(json_object_array_get_idx(files, 1), "label")),
                        "a");
    /* setup, timestep, assemble, solve are common; io/write "x" and rec are not */
    assert_string_equal(
        json_object_to_json_string_ext(get(doc, "common_regions"), JSON_C_TO_STRING_PLAIN),
        "[\"setup\",\"timestep\",\"assemble\",\"solve\"]");
    json_object_put(doc);
    sp_results_free(t);
    sp_results_free(m);
}

static void test_region_statistics_filters(void **state) {
    (void)state;
    sp_results *m = open_fixture("multirank_schema3");
    const sp_results *runs[] = {m};
    const char *inc[] = {"s", "io"};
    const char *exc[] = {"setup"};
    const uint32_t ranks[] = {2, 1};
    sp_stats_options opt = {0};
    opt.filter.include = inc;
    opt.filter.num_include = 2;
    opt.filter.exclude = exc;
    opt.filter.num_exclude = 1;
    opt.filter.ranks = ranks;
    opt.filter.num_ranks = 2;
    struct json_object *doc = collect(runs, 1, &opt);
    assert_string_equal(json_object_to_json_string_ext(get(doc, "filters"), JSON_C_TO_STRING_PLAIN),
                        "{\"include\":[\"s\",\"io\"],\"exclude\":[\"setup\"],\"ranks\":[2,1]}");
    struct json_object *stats =
        get(json_object_array_get_idx(get(doc, "files"), 0), "region_statistics");
    assert_int_equal(json_object_object_length(stats), 2);
    struct json_object *solve = get(stats, "solve");
    struct json_object *per_rank = get(solve, "per_rank");
    assert_int_equal(json_object_object_length(per_rank), 2);
    struct json_object_iterator it = json_object_iter_begin(per_rank);
    assert_string_equal(json_object_iter_peek_name(&it), "1"); /* ascending */
    int64_t c1 = json_object_get_int64(get(get(per_rank, "1"), "count"));
    int64_t c2 = json_object_get_int64(get(get(per_rank, "2"), "count"));
    assert_int_equal(json_object_get_int64(get(solve, "count")), c1 + c2);
    assert_non_null(get(stats, "io/write \"x\""));
    json_object_put(doc);

    /* a rank no region has: empty pools */
    const uint32_t absent[] = {7};
    sp_stats_options none = {0};
    none.filter.ranks = absent;
    none.filter.num_ranks = 1;
    doc = collect(runs, 1, &none);
    stats = get(json_object_array_get_idx(get(doc, "files"), 0), "region_statistics");
    struct json_object *setup = get(stats, "setup");
    assert_int_equal(json_object_get_int64(get(setup, "count")), 0);
    const char *nulls[] = {"average_duration_seconds", "min_duration_seconds",
                           "max_duration_seconds",     "first_duration_seconds",
                           "last_duration_seconds",    "std_duration_seconds",
                           "total_duration_seconds"};
    for (size_t i = 0; i < N(nulls); i++)
        assert_null(get(setup, nulls[i]));
    assert_int_equal(json_object_object_length(get(setup, "per_rank")), 0);
    json_object_put(doc);
    sp_results_free(m);
}

static void test_region_statistics_no_runs(void **state) {
    (void)state;
    struct json_object *doc = collect(NULL, 0, NULL);
    assert_string_equal(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN),
                        "{\"units\":{\"durations\":\"seconds\"},\"filters\":{\"include\":null,"
                        "\"exclude\":null,\"ranks\":null},\"common_regions\":[],\"files\":[]}");
    json_object_put(doc);
}

/* A fresh directory for written files. */
static char *temp_dir(void) {
    char *dir = strdup("/tmp/sp_present_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

/* text with every occurrence of dir replaced by "@FIXTURES@" (the absolute
 * paths in a written document differ from machine to machine). */
static char *with_placeholder(const char *text, const char *dir) {
    static const char mark[] = "@FIXTURES@";
    size_t len = strlen(dir), n = 0;
    char *out = malloc(strlen(text) * (sizeof mark) + 1); /* room even if len == 1 */
    assert_non_null(out);
    for (const char *p = text; *p;) {
        if (len && strncmp(p, dir, len) == 0) {
            memcpy(out + n, mark, sizeof mark - 1);
            n += sizeof mark - 1;
            p += len;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}

/* The document printed region by region is byte for byte the one the whole
 * json-c tree gave (expected/ files written by that version), both as the
 * returned string and as the written file. */
static void check_statistics_golden(const sp_results *const *runs, size_t n,
                                    const sp_stats_options *opt, const char *golden) {
    char path[PATH_MAX], dir[PATH_MAX];
    assert_non_null(realpath(SP_FIXTURES_DIR, dir));
    snprintf(path, sizeof path, "%s/expected/%s", SP_TEST_SOURCE_DIR, golden);
    char *want = slurp(path);
    assert_non_null(want);
    sp_error err = {SP_OK, ""};
    char *text = sp_format_region_statistics_json(runs, n, opt, &err);
    assert_non_null(text);
    char *got = with_placeholder(text, dir);
    assert_string_equal(got, want);
    free(got);
    free(text);
    char *tmp = temp_dir();
    snprintf(path, sizeof path, "%s/stats.json", tmp);
    assert_int_equal(sp_write_region_statistics_json(runs, n, opt, path, &err), SP_OK);
    text = slurp(path);
    assert_non_null(text);
    got = with_placeholder(text, dir);
    assert_string_equal(got, want);
    free(got);
    free(text);
    unlink(path);
    rmdir(tmp);
    free(tmp);
    free(want);
}

static void test_region_statistics_streamed(void **state) {
    (void)state;
    sp_results *m = open_fixture("multirank_schema3");
    sp_results *t = open_fixture("py_tutorial2");
    const sp_results *runs[] = {m, t, m};
    check_statistics_golden(runs, 3, NULL, "region_statistics_three.json");
    sp_stats_options opt = {0};
    const uint32_t ranks[] = {1};
    const char *include[] = {"a"};
    opt.filter.ranks = ranks;
    opt.filter.num_ranks = 1;
    opt.filter.include = include;
    opt.filter.num_include = 1;
    check_statistics_golden(runs, 2, &opt, "region_statistics_selected.json");
    sp_results_free(m);
    sp_results_free(t);
}

static void test_write_region_statistics(void **state) {
    (void)state;
    sp_results *t = open_fixture("py_tutorial2");
    const sp_results *runs[] = {t};
    char *dir = temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/new/sub/region_statistics.json", dir);
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_write_region_statistics_json(runs, 1, NULL, path, &err), SP_OK);
    char *text = slurp(path);
    assert_non_null(text);
    static const char head[] =
        "{\n  \"format\": \"scope-profiler-plot-data\",\n  \"format_version\": 1,\n"
        "  \"plot\": \"region_statistics\",\n  \"units\": {\n"
        "    \"durations\": \"seconds\"\n  },\n  \"filters\": {\n"
        "    \"include\": null,\n";
    assert_true(strncmp(text, head, strlen(head)) == 0);
    assert_int_equal(text[strlen(text) - 1], '\n');
    assert_int_equal(text[strlen(text) - 2], '}');
    /* the payload is what sp_collect_region_statistics returns */
    char *payload = sp_collect_region_statistics(runs, 1, NULL, &err);
    struct json_object *a = json_tokener_parse(text), *b = json_tokener_parse(payload);
    json_object_object_del(a, "format");
    json_object_object_del(a, "format_version");
    json_object_object_del(a, "plot");
    assert_true(json_equal(a, b, "written", 0.0));
    json_object_put(a);
    json_object_put(b);
    free(payload);
    free(text);

    /* zero runs: nothing written, like the Python package */
    snprintf(path, sizeof path, "%s/none.json", dir);
    assert_int_equal(sp_write_region_statistics_json(NULL, 0, NULL, path, &err), SP_OK);
    assert_int_equal(access(path, F_OK), -1);

    /* an unwritable target: an error naming it, no file, no temporary left */
    char blocker[PATH_MAX];
    snprintf(blocker, sizeof blocker, "%s/file", dir);
    FILE *f = fopen(blocker, "w");
    fclose(f);
    snprintf(path, sizeof path, "%s/file/x.json", dir);
    assert_int_not_equal(sp_write_region_statistics_json(runs, 1, NULL, path, &err), SP_OK);
    assert_non_null(strstr(err.message, path));
    assert_int_equal(sp_write_metadata_json(runs, 1, path, &err) != SP_OK, 1);
    assert_non_null(strstr(err.message, path));
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    sp_results_free(t);
}

/* --- metadata.json -------------------------------------------------------------- */

static void test_metadata_match_fixtures(void **state) {
    (void)state;
    sp_results *rs[N(fixtures)];
    for (size_t i = 0; i < N(fixtures); i++)
        rs[i] = open_fixture(fixtures[i]);
    sp_error err = {SP_OK, ""};
    char *text = sp_collect_metadata_json((const sp_results *const *)rs, N(fixtures), &err);
    assert_non_null(text);
    assert_int_equal(text[strlen(text) - 1], '\n');
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    struct json_object *files = get(doc, "files");
    assert_int_equal(json_object_array_length(files), N(fixtures));
    for (size_t i = 0; i < N(fixtures); i++) {
        struct json_object *want = expected(fixtures[i]);
        struct json_object *file = json_object_array_get_idx(files, i);
        struct json_object_iterator it = json_object_iter_begin(file);
        assert_string_equal(json_object_iter_peek_name(&it), "file_path");
        char *real = realpath(sp_results_path(rs[i]), NULL);
        assert_string_equal(json_object_get_string(get(file, "file_path")), real);
        free(real);
        assert_int_equal(json_object_get_int64(get(file, "num_ranks")),
                         json_object_get_int64(get(want, "num_ranks")));
        assert_true(json_equal(get(file, "metadata"), get(want, "metadata"), fixtures[i], 0.0));
        json_object_put(want);
    }
    json_object_put(doc);
    /* the written file holds the same text */
    char *dir = temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/metadata.json", dir);
    assert_int_equal(sp_write_metadata_json((const sp_results *const *)rs, N(fixtures), path, &err),
                     SP_OK);
    char *written = slurp(path);
    assert_string_equal(written, text);
    free(written);
    unlink(path);
    rmdir(dir);
    free(dir);
    free(text);
    for (size_t i = 0; i < N(fixtures); i++)
        sp_results_free(rs[i]);
}

/* --- summary rows: JSON and CSV -------------------------------------------------------- */

typedef struct summary_call {
    const sp_results *r;
    int per_rank, csv;
    sp_status st;
} summary_call;

static void summary_cb(FILE *f, void *arg) {
    summary_call *c = arg;
    sp_error err = {SP_OK, ""};
    c->st = c->csv ? sp_write_summary_csv(c->r, f, NULL, c->per_rank, &err)
                   : sp_write_summary_json(c->r, f, NULL, c->per_rank, &err);
    if (c->st) fprintf(stderr, "%s\n", err.message);
}

static char *summary_text(const sp_results *r, int per_rank, int csv) {
    summary_call c = {r, per_rank, csv, SP_OK};
    char *text = capture(summary_cb, &c);
    assert_int_equal(c.st, SP_OK);
    return text;
}

static void check_csv_against_json(const char *csv, struct json_object *list) {
    char **cells;
    size_t ncols;
    size_t rows = parse_csv(csv, &cells, &ncols);
    assert_int_equal(rows, json_object_array_length(list) + 1);
    for (size_t i = 0; i + 1 < rows; i++) {
        struct json_object *obj = json_object_array_get_idx(list, i);
        assert_int_equal(json_object_object_length(obj), ncols);
        size_t j = 0;
        json_object_object_foreach(obj, key, value) {
            assert_string_equal(cells[j], key);
            const char *cell = cells[(i + 1) * ncols + j];
            switch (json_object_get_type(value)) {
            case json_type_null:
                assert_string_equal(cell, "");
                break;
            case json_type_string:
                assert_string_equal(cell, json_object_get_string(value));
                break;
            case json_type_int:
                assert_int_equal(strtoll(cell, NULL, 10), json_object_get_int64(value));
                break;
            case json_type_double:
                assert_true(strtod(cell, NULL) == json_object_get_double(value));
                break;
            case json_type_array:
                assert_string_equal(cell,
                                    json_object_to_json_string_ext(value, JSON_C_TO_STRING_PLAIN));
                break;
            default:
                fail();
            }
            j++;
        }
    }
    for (size_t i = 0; i < rows * ncols; i++)
        free(cells[i]);
    free(cells);
}

static void test_summary_rows_match_fixtures(void **state) {
    (void)state;
    for (size_t i = 0; i < N(fixtures); i++) {
        sp_results *r = open_fixture(fixtures[i]);
        struct json_object *want = expected(fixtures[i]);
        char *json = summary_text(r, 0, 0);
        assert_int_equal(json[strlen(json) - 1], '\n');
        assert_true(strncmp(json, "[\n  {\n    \"name\": ", 18) == 0);
        struct json_object *got = json_tokener_parse(json);
        assert_non_null(got);
        assert_true(json_equal(got, get(want, "summary"), fixtures[i], TOL));
        char *csv = summary_text(r, 0, 1);
        check_csv_against_json(csv, got);
        free(csv);
        json_object_put(got);
        free(json);

        /* per rank: name, rank, get_summary keys, p50/p95/p99_duration */
        json = summary_text(r, 1, 0);
        got = json_tokener_parse(json);
        assert_non_null(got);
        struct json_object *per_rank = get(want, "per_rank");
        size_t expected_rows = 0;
        json_object_object_foreach(per_rank, name, region) {
            expected_rows += json_object_array_length(get(region, "ranks"));
            (void)name;
        }
        assert_int_equal(json_object_array_length(got), expected_rows);
        for (size_t k = 0; k < json_object_array_length(got); k++) {
            struct json_object *row = json_object_array_get_idx(got, k);
            const char *keys[] = {"name",
                                  "rank",
                                  "num_calls",
                                  "total_duration",
                                  "inclusive_duration",
                                  "exclusive_duration",
                                  "average_duration",
                                  "min_duration",
                                  "max_duration",
                                  "first_duration",
                                  "last_duration",
                                  "std_duration",
                                  "p50_duration",
                                  "p95_duration",
                                  "p99_duration"};
            struct json_object_iterator it = json_object_iter_begin(row);
            for (size_t q = 0; q < N(keys); q++, json_object_iter_next(&it))
                assert_string_equal(json_object_iter_peek_name(&it), keys[q]);
            struct json_object *entry = get(per_rank, json_object_get_string(get(row, "name")));
            char rank[16];
            snprintf(rank, sizeof rank, "%lld", (long long)json_object_get_int64(get(row, "rank")));
            assert_true(json_equal(get(row, "num_calls"),
                                   get(get(entry, "num_calls_per_rank"), rank), "calls", 0));
            assert_true(json_equal(get(row, "total_duration"),
                                   get(get(entry, "total_durations"), rank), "total", TOL));
            assert_true(json_equal(get(row, "average_duration"),
                                   get(get(entry, "average_durations"), rank), "avg", TOL));
            assert_true(json_equal(get(row, "max_duration"), get(get(entry, "max_durations"), rank),
                                   "max", TOL));
            if (!strcmp(rank, "0")) {
                struct json_object_iterator w = json_object_iter_begin(get(entry, "rank0_summary"));
                struct json_object_iterator wend =
                    json_object_iter_end(get(entry, "rank0_summary"));
                for (; !json_object_iter_equal(&w, &wend); json_object_iter_next(&w))
                    assert_true(json_equal(get(row, json_object_iter_peek_name(&w)),
                                           json_object_iter_peek_value(&w), "rank0", TOL));
            }
        }
        char *csv2 = summary_text(r, 1, 1);
        check_csv_against_json(csv2, got);
        free(csv2);
        json_object_put(got);
        free(json);
        json_object_put(want);
        sp_results_free(r);
    }
}

static void test_summary_errors(void **state) {
    (void)state;
    sp_results *r = open_fixture("py_tutorial2");
    const char *badpat[] = {"["};
    sp_filter f = {0};
    f.include = badpat;
    f.num_include = 1;
    sp_error err = {SP_OK, ""};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_int_equal(sp_write_summary_csv(r, mem, &f, 0, &err), SP_ERR_BAD_PATTERN);
    assert_int_equal(sp_write_summary_json(r, mem, &f, 1, &err), SP_ERR_BAD_PATTERN);
    fclose(mem);
    assert_int_equal(len, 0);
    free(text);
    assert_int_equal(sp_write_summary_csv(NULL, stdout, NULL, 0, &err), SP_ERR_INVALID_ARGUMENT);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_match_fixtures),
        cmocka_unit_test(test_notes_box_from_fixture),
        cmocka_unit_test(test_default_title),
        cmocka_unit_test(test_all_columns_and_sorts),
        cmocka_unit_test(test_filters_in_table),
        cmocka_unit_test(test_table_errors),
        cmocka_unit_test(test_region_statistics_match_fixtures),
        cmocka_unit_test(test_region_statistics_total_time),
        cmocka_unit_test(test_region_statistics_labels),
        cmocka_unit_test(test_region_statistics_filters),
        cmocka_unit_test(test_region_statistics_no_runs),
        cmocka_unit_test(test_write_region_statistics),
        cmocka_unit_test(test_region_statistics_streamed),
        cmocka_unit_test(test_metadata_match_fixtures),
        cmocka_unit_test(test_summary_rows_match_fixtures),
        cmocka_unit_test(test_summary_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
