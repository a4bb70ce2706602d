/* Region names with quotes, backslashes, newlines, control characters,
 * commas and non-ASCII text, recorded through the public API: every export
 * stays valid and gives the names back; and the table sp_finalize prints. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "csv_parse.h"
#include "present_test_util.h"
#include "scope_profiler.h"
#include "scope_profiler/results.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const names[] = {
    "plain",
    "quote\"d",
    "back\\slash",
    "new\nline",
    "cr\rtab\t",
    "ctl\x01\x1f\x7f",
    "caf\xc3\xa9 \xe2\x86\xbb \xf0\x9f\x98\x80",
    "comma,name",
    "it's",
    "slash/and > arrow",
};

/* Every run also holds the session root (one call from setup to finalize). */
#define ROOT          "scope_profiler.session"
#define NUM_REGIONS   (N(names) + 1)

typedef struct fixture {
    char dir[64];
    char path[PATH_MAX];
    sp_results *results;
} fixture;

/* One run: "plain" holds one call of every other name. */
static void record(const char *path, FILE *stream, sp_results **out) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.label = "names \"run\"";
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t outer = sp_region(names[0]);
    for (int rep = 0; rep < 2; rep++) {
        sp_begin(outer);
        for (size_t i = 1; i < N(names); i++) {
            sp_region_t r = sp_region(names[i]);
            sp_begin(r);
            sp_end(r);
        }
        sp_end(outer);
    }
    sp_finalize_options fo = {0};
    fo.quiet = stream == NULL;
    fo.stream = stream;
    fo.results = out;
    assert_int_equal(sp_finalize(&fo), SP_OK);
}

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    strcpy(f->dir, "/tmp/sp_names_XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->path, sizeof f->path, "%s/names.h5", f->dir);
    record(f->path, NULL, NULL);
    sp_error err = {SP_OK, ""};
    f->results = sp_read(f->path, &err);
    if (!f->results) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    sp_results_free(f->results);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    int rc = system(cmd);
    free(f);
    return rc == 0 ? 0 : -1;
}

static int is_name(const char *s) {
    if (!strcmp(s, ROOT)) return 1;
    for (size_t i = 0; i < N(names); i++)
        if (!strcmp(s, names[i])) return 1;
    return 0;
}

static void test_region_statistics_json(void **state) {
    fixture *f = *state;
    const sp_results *runs[] = {f->results};
    sp_error err = {SP_OK, ""};
    char *text = sp_collect_region_statistics(runs, 1, NULL, &err);
    assert_non_null(text);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        assert_true(*p < 0x80 && (*p >= 0x20 || *p == '\n')); /* ensure_ascii */
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    struct json_object *file = json_object_array_get_idx(json_object_object_get(doc, "files"), 0);
    assert_string_equal(json_object_get_string(json_object_object_get(file, "label")),
                        "names \"run\"");
    struct json_object *stats = json_object_object_get(file, "region_statistics");
    assert_int_equal(json_object_object_length(stats), NUM_REGIONS);
    json_object_object_foreach(stats, name, entry) {
        assert_true(is_name(name));
        assert_int_equal(json_object_get_int64(json_object_object_get(entry, "count")),
                         strcmp(name, ROOT) ? 2 : 1);
    }
    assert_int_equal(json_object_array_length(json_object_object_get(doc, "common_regions")),
                     NUM_REGIONS);
    json_object_put(doc);
    free(text);
}

static void test_metadata_json(void **state) {
    fixture *f = *state;
    const sp_results *runs[] = {f->results};
    sp_error err = {SP_OK, ""};
    char *text = sp_collect_metadata_json(runs, 1, &err);
    assert_non_null(text);
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    struct json_object *meta = json_object_object_get(
        json_object_array_get_idx(json_object_object_get(doc, "files"), 0), "metadata");
    assert_string_equal(json_object_get_string(json_object_object_get(meta, "label")),
                        "names \"run\"");
    assert_int_equal(json_object_object_length(meta), (int)sp_results_num_metadata(f->results));
    json_object_put(doc);
    free(text);
}

typedef struct summary_call {
    const sp_results *r;
    int csv;
} summary_call;

static void summary_cb(FILE *out, void *arg) {
    summary_call *c = arg;
    sp_error err = {SP_OK, ""};
    sp_status st = c->csv ? sp_write_summary_csv(c->r, out, NULL, 1, &err)
                          : sp_write_summary_json(c->r, out, NULL, 0, &err);
    assert_int_equal(st, SP_OK);
}

static void test_summary_rows(void **state) {
    fixture *f = *state;
    summary_call c = {f->results, 0};
    char *json = capture(summary_cb, &c);
    struct json_object *list = json_tokener_parse(json);
    assert_non_null(list);
    assert_int_equal(json_object_array_length(list), NUM_REGIONS);
    for (size_t i = 0; i < NUM_REGIONS; i++)
        assert_true(is_name(json_object_get_string(
            json_object_object_get(json_object_array_get_idx(list, i), "name"))));
    json_object_put(list);
    free(json);

    c.csv = 1;
    char *csv = capture(summary_cb, &c);
    char **cells;
    size_t ncols;
    size_t rows = parse_csv(csv, &cells, &ncols);
    assert_int_equal(rows, NUM_REGIONS + 1); /* one rank: one row per region */
    assert_string_equal(cells[0], "name");
    assert_string_equal(cells[1], "rank");
    for (size_t i = 1; i < rows; i++) {
        assert_true(is_name(cells[i * ncols]));
        assert_string_equal(cells[i * ncols + 1], "0");
    }
    free_csv(cells, rows * ncols);
    free(csv);
}

static void print_cb(FILE *out, void *arg) {
    sp_error err = {SP_OK, ""};
    assert_int_equal(sp_print_summary(arg, out, NULL, &err), SP_OK);
}

static void test_table(void **state) {
    fixture *f = *state;
    char *text = capture(print_cb, f->results);
    assert_non_null(strstr(text, "plain (2x)"));
    assert_non_null(strstr(text, "\xe2\x94\x94\xe2\x94\x80 comma,name (2x)"));
    assert_non_null(strstr(text, "Summary: names \"run\" - "));
    free(text);
}

/* sp_finalize's own table goes to the stream it is given. */
static void test_finalize_prints_the_table(void **state) {
    fixture *f = *state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/printed.h5", f->dir);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    record(path, mem, NULL);
    fclose(mem);
    assert_true(strncmp(text, "  \xe2\x95\xad", 5) == 0);
    assert_non_null(strstr(text, "  \xe2\x95\xad\xe2\x94\x80 Info "));
    /* what finalize prints is read by a person: readable units (docs/cli.md "Units") */
    assert_non_null(strstr(text, "\xe2\x94\x82 Durations carry their unit"));
    assert_int_equal(text[len - 1], '\n');
    assert_int_equal(text[len - 2], '\n');
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_region_statistics_json),
        cmocka_unit_test(test_metadata_json),
        cmocka_unit_test(test_summary_rows),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_finalize_prints_the_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
