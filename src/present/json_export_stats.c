/* region_statistics.json: sp_collect_region_statistics() and
 * sp_write_region_statistics_json() (docs/layout.md §7). The document is
 * printed as it is produced, one region entry (a small json-c tree) at a
 * time, in the layout json_print.c gives a whole tree: its per-rank blocks
 * (16,384 ranks x 200 regions = 1.4 GB of text) are never held as a tree,
 * and a file target receives the text region by region. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "present/json_build.h"
#include "present/json_export.h"
#include "present/json_print.h"
#include "present/text_file.h"
#include "present/py_path.h"
#include "common/decimal_format.h"
#include "common/py_float.h"
#include "common/text_buffer.h"

/* The members of one statistics object at `level`: count, then seven
 * durations (null when the pool is empty), written straight into the text
 * in one piece (a per-rank block has 16,384 of them: no json-c tree and no
 * append per token for each). */
static void print_stats_members(sp_textbuf *b, const sp_pool_stats *s, int level) {
    static const char *const keys[] = {
        "\"average_duration_seconds\": ", "\"min_duration_seconds\": ",
        "\"max_duration_seconds\": ",     "\"first_duration_seconds\": ",
        "\"last_duration_seconds\": ",    "\"std_duration_seconds\": ",
        "\"total_duration_seconds\": "};
    const double values[] = {s->average, s->min, s->max, s->first, s->last, s->std, s->total};
    /* 8 lines of at most ",", a line break and indent, a key of 32 and a number */
    char *start =
        sp_textbuf_space(b, 8 * (1 + sp_json_line_size(level) + 32 + SP_PY_FLOAT_REPR_SIZE));
    if (!start) return; /* the buffer's failure is sticky: the caller sees it */
    char *p = sp_json_put_line(start, level);
    memcpy(p, "\"count\": ", 9);
    p += 9;
    p += sp_format_u64(s->count, p);
    for (size_t i = 0; i < 7; i++) {
        *p++ = ',';
        p = sp_json_put_line(p, level);
        size_t key = strlen(keys[i]);
        memcpy(p, keys[i], key);
        p += key;
        if (s->count && isfinite(values[i])) {
            p += sp_py_float_repr(values[i], p);
        } else {
            memcpy(p, "null", 4); /* json_print.c writes non-finite values as null */
            p += 4;
        }
    }
    sp_textbuf_advance(b, (size_t)(p - start));
}

/* sp_filter: NULL ranks or num_ranks 0 select all ranks. */
static int ranks_given(const sp_filter *f) {
    return f->ranks && f->num_ranks;
}

static int compare_ranks(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* The selected ranks, sorted (NULL: all ranks, or out of memory with err set). */
static uint32_t *sorted_ranks(const sp_filter *f, sp_error *err) {
    if (!ranks_given(f)) return NULL;
    uint32_t *sorted = malloc(f->num_ranks * sizeof *sorted);
    if (!sorted) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    memcpy(sorted, f->ranks, f->num_ranks * sizeof *sorted);
    qsort(sorted, f->num_ranks, sizeof *sorted, compare_ranks);
    return sorted;
}

/* One region's entry, printed as an object at `level`: the pooled numbers,
 * then "per_rank" with one object per selected rank. */
static sp_status print_region_entry(sp_textbuf *b, const sp_mpi_region *region, const sp_filter *f,
                                    const uint32_t *selected, int level, sp_error *err) {
    sp_pool_stats s;
    sp_status st = sp_region_pool_stats(region, ranks_given(f) ? f->ranks : NULL,
                                        ranks_given(f) ? f->num_ranks : 0, &s, err);
    if (st) return st;
    sp_textbuf_putc(b, '{');
    print_stats_members(b, &s, level + 1);
    sp_json_print_separator(b, 0, level + 1);
    sp_textbuf_append(b, "\"per_rank\": {");
    size_t shown = 0;
    for (size_t i = 0; i < sp_mpi_region_num_ranks(region); i++) {
        uint32_t rank = sp_mpi_region_rank_id(region, i);
        if (selected && !bsearch(&rank, selected, f->num_ranks, sizeof rank, compare_ranks))
            continue;
        if ((st = sp_region_pool_stats(region, &rank, 1, &s, err))) return st;
        sp_json_print_separator(b, shown++ == 0, level + 2);
        char key[32] = {'"'};
        size_t len = 1 + sp_format_u64(rank, key + 1);
        memcpy(key + len, "\": {", 4);
        sp_textbuf_append_n(b, key, len + 4);
        print_stats_members(b, &s, level + 3);
        sp_json_print_close(b, '}', 0, level + 2);
    }
    sp_json_print_close(b, '}', shown == 0, level + 1);
    sp_json_print_close(b, '}', 0, level);
    return SP_OK;
}

/* The display labels with repeats renamed "{label} ({k})"; or the given ones. */
static char **run_labels(const sp_results *const *runs, size_t n, const char *const *given) {
    char **labels = calloc(n ? n : 1, sizeof *labels);
    if (!labels) return NULL;
    for (size_t i = 0; i < n; i++) {
        const char *base = given && given[i] ? given[i] : sp_results_display_label(runs[i]);
        size_t repeat = 1;
        if (!given)
            for (size_t j = 0; j < i; j++)
                if (!strcmp(sp_results_display_label(runs[j]), base)) repeat++;
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_textbuf_append(&b, base ? base : "");
        if (repeat > 1) sp_textbuf_printf(&b, " (%zu)", repeat);
        labels[i] = sp_textbuf_take(&b);
        if (!labels[i]) {
            for (size_t j = 0; j < i; j++)
                free(labels[j]);
            free(labels);
            return NULL;
        }
    }
    return labels;
}

static struct json_object *filters_object(const sp_filter *f) {
    struct json_object *o = json_object_new_object();
    int ok = f->include
                 ? sp_json_add(o, "include", sp_json_string_array(f->include, f->num_include))
                 : sp_json_add_null(o, "include");
    ok = ok &&
         (f->exclude ? sp_json_add(o, "exclude", sp_json_string_array(f->exclude, f->num_exclude))
                     : sp_json_add_null(o, "exclude"));
    if (ok && ranks_given(f)) {
        struct json_object *ranks = json_object_new_array();
        for (size_t i = 0; i < f->num_ranks && ranks; i++)
            if (!sp_json_append(ranks, json_object_new_int64(f->ranks[i]))) {
                json_object_put(ranks);
                ranks = NULL;
            }
        ok = sp_json_add(o, "ranks", ranks);
    } else if (ok) {
        ok = sp_json_add_null(o, "ranks");
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* Where the text goes: kept whole in buf (file NULL), or written to file
 * whenever a region entry is complete. */
typedef struct stats_out {
    sp_textbuf buf;
    FILE *file;
} stats_out;

static sp_status out_flush(stats_out *o, sp_error *err) {
    if (sp_textbuf_failed(&o->buf)) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    if (!o->file) return SP_OK;
    fwrite(o->buf.data ? o->buf.data : "", 1, o->buf.len, o->file); /* errors: ferror() */
    sp_textbuf_reset(&o->buf);
    return SP_OK;
}

/* Prints `value` as member `key` of an object at level - 1, then frees it. */
static sp_status out_member(stats_out *o, const char *key, struct json_object *value, int first,
                            int level, sp_error *err) {
    if (!value) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_json_print_key(&o->buf, key, first, level);
    sp_json_print(&o->buf, value, level);
    json_object_put(value);
    return SP_OK;
}

static struct json_object *string_value(const char *s) {
    return json_object_new_string(s ? s : "");
}

/* One element of "files" at level 2: its members at level 3, the region
 * entries at level 4. */
static sp_status print_file(stats_out *o, const sp_results *run, const char *label,
                            const sp_mpi_region *const *regions, size_t count, const sp_filter *f,
                            sp_error *err) {
    const char *path = sp_results_path(run);
    char *abs = sp_py_resolve(path ? path : "");
    if (!abs) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    double total = sp_results_total_time(run);
    sp_textbuf_putc(&o->buf, '{');
    sp_status st = out_member(o, "label", string_value(label), 1, 3, err);
    if (!st) st = out_member(o, "file_path", string_value(abs), 0, 3, err);
    free(abs);
    if (!st)
        st = out_member(o, "num_ranks", json_object_new_int64((int64_t)sp_results_num_ranks(run)),
                        0, 3, err);
    if (!st && isnan(total)) {
        sp_json_print_key(&o->buf, "total_time_seconds", 0, 3);
        sp_textbuf_append(&o->buf, "null");
    } else if (!st) {
        st = out_member(o, "total_time_seconds", json_object_new_double(total), 0, 3, err);
    }
    if (!st) {
        sp_json_print_key(&o->buf, "region_statistics", 0, 3);
        sp_textbuf_putc(&o->buf, '{');
    }
    uint32_t *selected = st ? NULL : sorted_ranks(f, err);
    if (!st && ranks_given(f) && !selected) st = SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; !st && i < count; i++) {
        sp_json_print_key(&o->buf, sp_mpi_region_name(regions[i]), i == 0, 4);
        st = print_region_entry(&o->buf, regions[i], f, selected, 4, err);
        if (!st) st = out_flush(o, err);
    }
    free(selected);
    if (!st) {
        sp_json_print_close(&o->buf, '}', count == 0, 3);
        sp_json_print_close(&o->buf, '}', 0, 2);
    }
    return st;
}

typedef struct run_regions {
    const sp_mpi_region **list; /* get_regions(include, exclude) of the run */
    size_t count;
    const char **sorted; /* their names, sorted (common_regions) */
} run_regions;

static int compare_names(const void *pa, const void *pb) {
    return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static void run_regions_free(run_regions *rr, size_t n) {
    for (size_t i = 0; rr && i < n; i++) {
        sp_region_list_free(rr[i].list);
        free(rr[i].sorted);
    }
    free(rr);
}

/* Every run's regions (no rank restriction: get_regions(include, exclude)). */
static run_regions *collect_regions(const sp_results *const *runs, size_t n, const sp_filter *f,
                                    sp_error *err) {
    run_regions *rr = calloc(n ? n : 1, sizeof *rr);
    if (!rr) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    sp_filter regions_filter = *f;
    regions_filter.ranks = NULL;
    regions_filter.num_ranks = 0;
    for (size_t i = 0; i < n; i++) {
        rr[i].list = sp_results_get_regions(runs[i], &regions_filter, &rr[i].count, err);
        rr[i].sorted = rr[i].list ? malloc((rr[i].count ? rr[i].count : 1) * sizeof(char *)) : NULL;
        if (!rr[i].sorted) {
            if (rr[i].list) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
            run_regions_free(rr, i + 1);
            return NULL;
        }
        for (size_t k = 0; k < rr[i].count; k++)
            rr[i].sorted[k] = sp_mpi_region_name(rr[i].list[k]);
        qsort(rr[i].sorted, rr[i].count, sizeof(char *), compare_names);
    }
    return rr;
}

/* Names of the first run's regions present in every run, in its order. */
static struct json_object *common_regions(const run_regions *rr, size_t n) {
    struct json_object *out = json_object_new_array();
    for (size_t k = 0; out && n && k < rr[0].count; k++) {
        const char *name = sp_mpi_region_name(rr[0].list[k]);
        int everywhere = 1;
        for (size_t i = 1; i < n && everywhere; i++)
            everywhere =
                bsearch(&name, rr[i].sorted, rr[i].count, sizeof(char *), compare_names) != NULL;
        if (everywhere && !sp_json_append(out, json_object_new_string(name))) {
            json_object_put(out);
            return NULL;
        }
    }
    return out;
}

static struct json_object *units_object(void) {
    struct json_object *units = json_object_new_object();
    if (units && !sp_json_add_string(units, "durations", "seconds")) {
        json_object_put(units);
        return NULL;
    }
    return units;
}

/* The document, with the plot-data envelope or as the bare payload
 * {units, filters, common_regions, files}. */
static sp_status print_document(stats_out *o, const sp_results *const *runs, size_t num_runs,
                                const sp_stats_options *options, int envelope, sp_error *err) {
    static const sp_stats_options no_options;
    if (!options) options = &no_options;
    if (num_runs && !runs)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "region statistics: no runs given");
    for (size_t i = 0; i < num_runs; i++)
        if (!runs[i])
            return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "region statistics: run %zu is NULL",
                                i);
    run_regions *rr = collect_regions(runs, num_runs, &options->filter, err);
    if (!rr) return err && err->status ? err->status : SP_ERR_OUT_OF_MEMORY;
    char **labels = run_labels(runs, num_runs, options->labels);
    sp_status st = labels ? SP_OK : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    int first = 1;
    sp_textbuf_putc(&o->buf, '{');
    if (!st && envelope) {
        st = out_member(o, "format", json_object_new_string("scope-profiler-plot-data"), 1, 1, err);
        if (!st) st = out_member(o, "format_version", json_object_new_int64(1), 0, 1, err);
        if (!st) st = out_member(o, "plot", json_object_new_string("region_statistics"), 0, 1, err);
        first = 0;
    }
    if (!st) st = out_member(o, "units", units_object(), first, 1, err);
    if (!st) st = out_member(o, "filters", filters_object(&options->filter), 0, 1, err);
    if (!st) st = out_member(o, "common_regions", common_regions(rr, num_runs), 0, 1, err);
    if (!st) {
        sp_json_print_key(&o->buf, "files", 0, 1);
        sp_textbuf_putc(&o->buf, '[');
    }
    for (size_t i = 0; !st && i < num_runs; i++) {
        sp_json_print_separator(&o->buf, i == 0, 2);
        st = print_file(o, runs[i], labels[i], rr[i].list, rr[i].count, &options->filter, err);
    }
    if (!st) {
        sp_json_print_close(&o->buf, ']', num_runs == 0, 1);
        sp_json_print_close(&o->buf, '}', 0, 0);
        sp_textbuf_putc(&o->buf, '\n');
        st = out_flush(o, err);
    }
    for (size_t i = 0; labels && i < num_runs; i++)
        free(labels[i]);
    free(labels);
    run_regions_free(rr, num_runs);
    return st;
}

static char *document_text(const sp_results *const *runs, size_t num_runs,
                           const sp_stats_options *options, int envelope, sp_error *err) {
    stats_out o = {SP_TEXTBUF_INIT, NULL};
    if (print_document(&o, runs, num_runs, options, envelope, err) != SP_OK) {
        sp_textbuf_free(&o.buf);
        return NULL;
    }
    return sp_textbuf_take(&o.buf);
}

char *sp_collect_region_statistics(const sp_results *const *runs, size_t num_runs,
                                   const sp_stats_options *options, sp_error *err) {
    return document_text(runs, num_runs, options, 0, err);
}

char *sp_format_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                       const sp_stats_options *options, sp_error *err) {
    return document_text(runs, num_runs, options, 1, err);
}

typedef struct stats_job {
    const sp_results *const *runs;
    size_t num_runs;
    const sp_stats_options *options;
} stats_job;

static sp_status produce_document(void *ctx, FILE *f, sp_error *err) {
    const stats_job *job = ctx;
    stats_out o = {SP_TEXTBUF_INIT, f};
    sp_status st = print_document(&o, job->runs, job->num_runs, job->options, 1, err);
    sp_textbuf_free(&o.buf);
    return st;
}

sp_status sp_write_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                          const sp_stats_options *options, const char *out_path,
                                          sp_error *err) {
    if (!out_path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no output path given");
    if (!num_runs) return SP_OK; /* like the Python package: nothing to write */
    stats_job job = {runs, num_runs, options};
    return sp_write_text_stream(out_path, produce_document, &job, err);
}
