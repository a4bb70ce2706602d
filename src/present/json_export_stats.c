/* region_statistics.json: sp_collect_region_statistics() and
 * sp_write_region_statistics_json() (docs/layout.md §7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "present/json_build.h"
#include "present/json_export.h"
#include "present/py_path.h"
#include "common/text_buffer.h"

/* count, then seven durations (null when the pool is empty). */
static struct json_object *stats_object(const sp_pool_stats *s) {
    struct json_object *o = json_object_new_object();
    int ok = sp_json_add_int(o, "count", (int64_t)s->count);
    const char *keys[] = {"average_duration_seconds", "min_duration_seconds",
                          "max_duration_seconds",     "first_duration_seconds",
                          "last_duration_seconds",    "std_duration_seconds",
                          "total_duration_seconds"};
    const double values[] = {s->average, s->min, s->max, s->first, s->last, s->std, s->total};
    for (size_t i = 0; i < 7 && ok; i++)
        ok = s->count ? sp_json_add_double(o, keys[i], values[i]) : sp_json_add_null(o, keys[i]);
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* sp_filter: NULL ranks or num_ranks 0 select all ranks. */
static int ranks_given(const sp_filter *f) {
    return f->ranks && f->num_ranks;
}

static int rank_selected(const sp_filter *f, uint32_t rank) {
    if (!ranks_given(f)) return 1;
    for (size_t i = 0; i < f->num_ranks; i++)
        if (f->ranks[i] == rank) return 1;
    return 0;
}

static struct json_object *region_entry(const sp_mpi_region *region, const sp_filter *f,
                                        sp_error *err) {
    sp_pool_stats s;
    if (sp_region_pool_stats(region, ranks_given(f) ? f->ranks : NULL,
                             ranks_given(f) ? f->num_ranks : 0, &s, err))
        return NULL;
    struct json_object *entry = stats_object(&s);
    struct json_object *per_rank = json_object_new_object();
    int ok = entry && per_rank;
    for (size_t i = 0; ok && i < sp_mpi_region_num_ranks(region); i++) {
        uint32_t rank = sp_mpi_region_rank_id(region, i);
        if (!rank_selected(f, rank)) continue;
        if (sp_region_pool_stats(region, &rank, 1, &s, err)) {
            json_object_put(entry);
            json_object_put(per_rank);
            return NULL;
        }
        char key[16];
        snprintf(key, sizeof key, "%u", (unsigned)rank);
        ok = sp_json_add(per_rank, key, stats_object(&s));
    }
    if (!ok) json_object_put(per_rank);
    if (!ok || !sp_json_add(entry, "per_rank", per_rank)) {
        json_object_put(entry);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return entry;
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

static struct json_object *file_entry(const sp_results *run, const char *label, const sp_filter *f,
                                      sp_error *err) {
    sp_filter regions_filter = *f; /* get_regions(include, exclude): no rank restriction */
    regions_filter.ranks = NULL;
    regions_filter.num_ranks = 0;
    size_t count = 0;
    const sp_mpi_region **regions = sp_results_get_regions(run, &regions_filter, &count, err);
    if (!regions) return NULL;
    const char *path = sp_results_path(run);
    char *abs = sp_py_resolve(path ? path : "");
    double total = sp_results_total_time(run);
    struct json_object *o = json_object_new_object();
    struct json_object *stats = json_object_new_object();
    int ok = abs && sp_json_add_string(o, "label", label) &&
             sp_json_add_string(o, "file_path", abs) &&
             sp_json_add_int(o, "num_ranks", (int64_t)sp_results_num_ranks(run)) &&
             (isnan(total) ? sp_json_add_null(o, "total_time_seconds")
                           : sp_json_add_double(o, "total_time_seconds", total));
    free(abs);
    if (!ok) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; ok && i < count; i++) {
        struct json_object *entry = region_entry(regions[i], f, err);
        ok = entry && sp_json_add(stats, sp_mpi_region_name(regions[i]), entry);
        if (entry && !ok) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    sp_region_list_free(regions);
    if (!ok || !sp_json_add(o, "region_statistics", stats)) {
        if (ok)
            sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        else
            json_object_put(stats);
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* Names of the first run's regions present in every run, in its order. */
static struct json_object *common_regions(struct json_object *files) {
    struct json_object *out = json_object_new_array();
    size_t n = json_object_array_length(files);
    if (!out || !n) return out;
    struct json_object *first =
        json_object_object_get(json_object_array_get_idx(files, 0), "region_statistics");
    json_object_object_foreach(first, name, unused) {
        (void)unused;
        int everywhere = 1;
        for (size_t i = 1; i < n && everywhere; i++) {
            struct json_object *stats =
                json_object_object_get(json_object_array_get_idx(files, i), "region_statistics");
            everywhere = json_object_object_get_ex(stats, name, NULL);
        }
        if (everywhere && !sp_json_append(out, json_object_new_string(name))) {
            json_object_put(out);
            return NULL;
        }
    }
    return out;
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

struct json_object *sp_region_statistics_payload(const sp_results *const *runs, size_t num_runs,
                                                 const sp_stats_options *options, sp_error *err) {
    static const sp_stats_options no_options;
    if (!options) options = &no_options;
    if (num_runs && !runs) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "region statistics: no runs given");
        return NULL;
    }
    for (size_t i = 0; i < num_runs; i++)
        if (!runs[i]) {
            sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "region statistics: run %zu is NULL", i);
            return NULL;
        }
    char **labels = run_labels(runs, num_runs, options->labels);
    struct json_object *doc = json_object_new_object();
    struct json_object *units = json_object_new_object();
    struct json_object *files = json_object_new_array();
    int ok = labels && doc && units && files;
    if (!ok) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; ok && i < num_runs; i++)
        ok = sp_json_append(files, file_entry(runs[i], labels[i], &options->filter, err));
    if (labels)
        for (size_t i = 0; i < num_runs; i++)
            free(labels[i]);
    free(labels);
    if (ok) {
        ok = sp_json_add_string(units, "durations", "seconds") && sp_json_add(doc, "units", units);
        units = NULL;
        ok = ok && sp_json_add(doc, "filters", filters_object(&options->filter)) &&
             sp_json_add(doc, "common_regions", common_regions(files)) &&
             sp_json_add(doc, "files", files);
        files = NULL;
        if (!ok) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    json_object_put(units);
    json_object_put(files);
    if (!ok) {
        json_object_put(doc);
        return NULL;
    }
    return doc;
}

char *sp_collect_region_statistics(const sp_results *const *runs, size_t num_runs,
                                   const sp_stats_options *options, sp_error *err) {
    struct json_object *doc = sp_region_statistics_payload(runs, num_runs, options, err);
    if (!doc) return NULL;
    char *text = sp_json_export_text(doc, err);
    json_object_put(doc);
    return text;
}

/* The written document: the payload inside its envelope (docs/layout.md §7). */
static struct json_object *statistics_document(const sp_results *const *runs, size_t num_runs,
                                               const sp_stats_options *options, sp_error *err) {
    struct json_object *payload = sp_region_statistics_payload(runs, num_runs, options, err);
    if (!payload) return NULL;
    struct json_object *doc = json_object_new_object();
    int ok = doc && sp_json_add_string(doc, "format", "scope-profiler-plot-data") &&
             sp_json_add_int(doc, "format_version", 1) &&
             sp_json_add_string(doc, "plot", "region_statistics");
    json_object_object_foreach(payload, key, value) {
        ok = ok && sp_json_add(doc, key, json_object_get(value));
    }
    json_object_put(payload);
    if (!ok) {
        json_object_put(doc);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return doc;
}

char *sp_format_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                       const sp_stats_options *options, sp_error *err) {
    struct json_object *doc = statistics_document(runs, num_runs, options, err);
    if (!doc) return NULL;
    char *text = sp_json_export_text(doc, err);
    json_object_put(doc);
    return text;
}

sp_status sp_write_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                          const sp_stats_options *options, const char *out_path,
                                          sp_error *err) {
    if (!out_path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no output path given");
    if (!num_runs) return SP_OK; /* like the Python package: nothing to write */
    struct json_object *doc = statistics_document(runs, num_runs, options, err);
    if (!doc) return err && err->status ? err->status : SP_ERR_OUT_OF_MEMORY;
    return sp_json_export_write(doc, out_path, err);
}
