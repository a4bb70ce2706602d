/*
 * stats --group-by: runs grouped by the values of metadata keys; per group
 * and region the runs holding the region and the mean, minimum and maximum
 * over them of the region's time per run (its total over the ranks divided
 * by the ranks that recorded it: one number per run, as Thicket's groupby
 * aggregates one row per node per profile).
 */
#include "cli/stats_group.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "cli/cli_meta.h"
#include "cli/cli_shown.h"
#include "common/py_float.h"
#include "present/box_table.h"
#include "present/csv_escape.h"
#include "present/json_build.h"
#include "present/json_print.h"

typedef struct group_region {
    char *name;
    size_t runs;
    double sum, min, max;
} group_region;

typedef struct group {
    char **values; /* one text per key */
    const sp_results *first;
    size_t *members; /* run indices */
    size_t num_members;
    group_region *regions;
    size_t num_regions;
} group;

typedef struct grouping {
    const cli_list *keys;
    group *groups;
    size_t num_groups;
    int failed;
} grouping;

static int same_values(const group *g, char **values, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (strcmp(g->values[k], values[k])) return 0;
    return 1;
}

/* Numbers compare as numbers, anything else as text. */
static int compare_value(const char *a, const char *b) {
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (*a && *b && !*ea && !*eb && x != y) return x < y ? -1 : 1;
    return strcmp(a, b);
}

static size_t num_keys_sorting; /* qsort has no context argument */

static int by_values(const void *pa, const void *pb) {
    const group *a = pa, *b = pb;
    for (size_t k = 0; k < num_keys_sorting; k++) {
        int c = compare_value(a->values[k], b->values[k]);
        if (c) return c;
    }
    return 0;
}

static double run_value(const sp_mpi_region *mr) {
    size_t ranks = sp_mpi_region_num_ranks(mr);
    return ranks ? sp_mpi_region_total_duration(mr) / (double)ranks : 0.0;
}

static void add_region(grouping *gs, group *g, const sp_mpi_region *mr) {
    const char *name = sp_mpi_region_name(mr);
    double v = run_value(mr);
    for (size_t i = 0; i < g->num_regions; i++) {
        group_region *r = &g->regions[i];
        if (strcmp(r->name, name)) continue;
        r->runs++;
        r->sum += v;
        r->min = fmin(r->min, v);
        r->max = fmax(r->max, v);
        return;
    }
    group_region *grown = realloc(g->regions, (g->num_regions + 1) * sizeof *grown);
    char *copy = strdup(name);
    if (!grown || !copy) {
        if (grown) g->regions = grown;
        free(copy);
        gs->failed = 1;
        return;
    }
    g->regions = grown;
    g->regions[g->num_regions++] = (group_region){copy, 1, v, v, v};
}

static group *group_for(grouping *gs, char **values, const sp_results *run) {
    size_t n = gs->keys->count;
    for (size_t i = 0; i < gs->num_groups; i++)
        if (same_values(&gs->groups[i], values, n)) {
            for (size_t k = 0; k < n; k++)
                free(values[k]);
            free(values);
            return &gs->groups[i];
        }
    group *grown = realloc(gs->groups, (gs->num_groups + 1) * sizeof *grown);
    if (!grown) return NULL;
    gs->groups = grown;
    group *g = &gs->groups[gs->num_groups++];
    *g = (group){.values = values, .first = run};
    return g;
}

/* The run's values of every key (owned), or NULL with *missing set to the first key it lacks. */
static char **run_values(const sp_results *run, const cli_list *keys, const char **missing,
                         int *oom) {
    char **values = calloc(keys->count, sizeof *values);
    if (!values) {
        *oom = 1;
        return NULL;
    }
    for (size_t k = 0; k < keys->count; k++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        int found = cli_meta_value_text(run, keys->items[k], &b);
        values[k] = sp_textbuf_take(&b);
        if (!values[k] && found) *oom = 1;
        if (!values[k] || !found) {
            if (!found) *missing = keys->items[k];
            for (size_t j = 0; j <= k; j++)
                free(values[j]);
            free(values);
            return NULL;
        }
    }
    return values;
}

static int add_run(grouping *gs, const sp_results *run, size_t index, const sp_filter *filter,
                   const char **missing) {
    int oom = 0;
    char **values = run_values(run, gs->keys, missing, &oom);
    if (!values) return oom ? -1 : 0;
    group *g = group_for(gs, values, run);
    size_t *members = g ? realloc(g->members, (g->num_members + 1) * sizeof *members) : NULL;
    if (!members) return -1;
    g->members = members;
    g->members[g->num_members++] = index;
    size_t count = 0;
    sp_error err = {0};
    const sp_mpi_region **list = sp_results_get_regions(run, filter, &count, &err);
    if (!list) return -1;
    for (size_t i = 0; i < count; i++)
        if (sp_mpi_region_num_calls(list[i])) add_region(gs, g, list[i]);
    sp_region_list_free(list);
    return gs->failed ? -1 : 1;
}

static void free_grouping(grouping *gs) {
    for (size_t i = 0; i < gs->num_groups; i++) {
        group *g = &gs->groups[i];
        for (size_t k = 0; k < gs->keys->count; k++)
            free(g->values[k]);
        free(g->values);
        free(g->members);
        for (size_t r = 0; r < g->num_regions; r++)
            free(g->regions[r].name);
        free(g->regions);
    }
    free(gs->groups);
}

static void text_out(sp_textbuf *out, const grouping *gs) {
    size_t nk = gs->keys->count, ncols = nk + 5, nrows = 0;
    for (size_t i = 0; i < gs->num_groups; i++)
        nrows += gs->groups[i].num_regions;
    const char **headers = calloc(ncols, sizeof *headers);
    char **cells = calloc(nrows * ncols + 1, sizeof *cells);
    if (!headers || !cells) {
        out->failed = 1;
        free(headers);
        free(cells);
        return;
    }
    for (size_t k = 0; k < nk; k++)
        headers[k] = gs->keys->items[k];
    const char *rest[] = {"region", "runs", "mean [s]", "min [s]", "max [s]"};
    for (size_t j = 0; j < 5; j++)
        headers[nk + j] = rest[j];
    size_t row = 0;
    int ok = 1;
    for (size_t i = 0; i < gs->num_groups; i++) {
        const group *g = &gs->groups[i];
        for (size_t r = 0; r < g->num_regions; r++, row++) {
            const group_region *gr = &g->regions[r];
            char **c = cells + row * ncols;
            sp_textbuf b = SP_TEXTBUF_INIT;
            for (size_t k = 0; k < nk; k++) {
                sp_textbuf_append(&b, g->values[k]);
                c[k] = sp_textbuf_take(&b);
            }
            sp_textbuf_append(&b, gr->name);
            c[nk] = sp_textbuf_take(&b);
            sp_textbuf_printf(&b, "%zu", gr->runs);
            c[nk + 1] = sp_textbuf_take(&b);
            sp_textbuf_printf(&b, "%.6g", gr->sum / (double)gr->runs);
            c[nk + 2] = sp_textbuf_take(&b);
            sp_textbuf_printf(&b, "%.6g", gr->min);
            c[nk + 3] = sp_textbuf_take(&b);
            sp_textbuf_printf(&b, "%.6g", gr->max);
            c[nk + 4] = sp_textbuf_take(&b);
            for (size_t j = 0; j < ncols; j++)
                ok &= c[j] != NULL;
        }
    }
    sp_textbuf_append(out, "time: the region's total per rank in each run [s]; mean, min and max "
                           "over the group's runs\n");
    for (size_t i = 0; i < gs->num_groups; i++) {
        const group *g = &gs->groups[i];
        sp_textbuf_append(out, "group");
        for (size_t k = 0; k < nk; k++)
            sp_textbuf_printf(out, "%s %s=%s", k ? "," : "", gs->keys->items[k], g->values[k]);
        sp_textbuf_printf(out, ": %zu run%s\n", g->num_members, g->num_members == 1 ? "" : "s");
    }
    if (ok)
        sp_box_table(out, headers, ncols, (const char *const *)cells, nrows);
    else
        out->failed = 1;
    for (size_t i = 0; i < nrows * ncols; i++)
        free(cells[i]);
    free(cells);
    free(headers);
}

static void csv_num(sp_textbuf *out, double v) {
    char text[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(v, text);
    sp_textbuf_putc(out, ',');
    sp_textbuf_append(out, text);
}

static void csv_out(sp_textbuf *out, const grouping *gs) {
    for (size_t k = 0; k < gs->keys->count; k++) {
        sp_csv_field(out, gs->keys->items[k], 0);
        sp_textbuf_putc(out, ',');
    }
    sp_textbuf_append(out, "region,runs,mean,min,max" SP_CSV_EOL);
    for (size_t i = 0; i < gs->num_groups; i++) {
        const group *g = &gs->groups[i];
        for (size_t r = 0; r < g->num_regions; r++) {
            const group_region *gr = &g->regions[r];
            for (size_t k = 0; k < gs->keys->count; k++) {
                sp_csv_field(out, g->values[k], 0);
                sp_textbuf_putc(out, ',');
            }
            sp_csv_field(out, gr->name, 0);
            sp_textbuf_printf(out, ",%zu", gr->runs);
            csv_num(out, gr->sum / (double)gr->runs);
            csv_num(out, gr->min);
            csv_num(out, gr->max);
            sp_textbuf_append(out, SP_CSV_EOL);
        }
    }
}

/* A metadata value as its own JSON type. */
static struct json_object *typed_value(const sp_results *run, const char *key) {
    sp_metadata_item item;
    if (!sp_results_metadata_find(run, key, &item)) return NULL;
    if (item.type == SP_VALUE_INT) return json_object_new_int64(item.int_value);
    if (item.type == SP_VALUE_FLOAT) return json_object_new_double(item.float_value);
    if (item.type == SP_VALUE_STRING) return json_object_new_string(item.string_value);
    return sp_json_string_array((const char *const *)item.list, item.list_len);
}

static struct json_object *group_json(const grouping *gs, const group *g, const cli_list *files) {
    struct json_object *o = json_object_new_object(), *values = json_object_new_object();
    struct json_object *members = json_object_new_array(), *regions = json_object_new_array();
    int ok = o && values && members && regions;
    for (size_t k = 0; ok && k < gs->keys->count; k++)
        ok = sp_json_add(values, gs->keys->items[k], typed_value(g->first, gs->keys->items[k]));
    for (size_t m = 0; ok && m < g->num_members; m++)
        ok = sp_json_append(members, json_object_new_string(files->items[g->members[m]]));
    for (size_t r = 0; ok && r < g->num_regions; r++) {
        const group_region *gr = &g->regions[r];
        struct json_object *ro = json_object_new_object();
        ok = sp_json_add_string(ro, "name", gr->name) &&
             sp_json_add_int(ro, "runs", (int64_t)gr->runs) &&
             sp_json_add_double(ro, "mean", gr->sum / (double)gr->runs) &&
             sp_json_add_double(ro, "min", gr->min) && sp_json_add_double(ro, "max", gr->max);
        if (!ok) json_object_put(ro);
        ok = ok && sp_json_append(regions, ro);
    }
    if (ok && sp_json_add(o, "values", values)) values = NULL;
    if (ok && !values && sp_json_add(o, "files", members)) members = NULL;
    if (ok && !members && sp_json_add(o, "regions", regions)) regions = NULL;
    ok = ok && !values && !members && !regions;
    json_object_put(values);
    json_object_put(members);
    json_object_put(regions);
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static char *json_out(const grouping *gs, const cli_list *files, struct json_object *skipped) {
    struct json_object *o = json_object_new_object(), *groups = json_object_new_array();
    int ok =
        o && groups &&
        sp_json_add(o, "group_by",
                    sp_json_string_array((const char *const *)gs->keys->items, gs->keys->count)) &&
        sp_json_add_string(o, "time", "total per rank in each run, seconds");
    for (size_t i = 0; ok && i < gs->num_groups; i++)
        ok = sp_json_append(groups, group_json(gs, &gs->groups[i], files));
    if (ok) {
        ok = sp_json_add(o, "groups", groups);
        groups = NULL;
    }
    json_object_get(skipped);
    ok = ok && sp_json_add(o, "skipped", skipped);
    char *text = ok ? sp_json_document(o) : NULL;
    json_object_put(groups);
    json_object_put(o);
    return text;
}

static int emit(const char *text, const char *output) {
    if (!text) return cli_out_of_memory();
    if (!output || !strcmp(output, "-")) {
        fputs(text, stdout);
        return 0;
    }
    FILE *f = fopen(output, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f)) ok = 0;
    if (!ok)
        return cli_usage_error(
            "stats", "cannot write %s (check the directory exists and is writable)", output);
    printf("Grouped statistics written to %s\n", cli_shown(output));
    return 0;
}

int cli_stats_group(const cli_runs *runs, const cli_list *files, const cli_list *keys,
                    const sp_filter *filter, stats_group_format format, const char *output) {
    grouping gs = {.keys = keys};
    struct json_object *skipped = json_object_new_array();
    sp_textbuf names = SP_TEXTBUF_INIT;
    size_t num_skipped = 0;
    int rc = skipped ? 0 : cli_out_of_memory();
    for (size_t i = 0; !rc && i < runs->count; i++) {
        const char *missing = NULL;
        int added = add_run(&gs, runs->items[i], i, filter, &missing);
        if (added < 0) rc = cli_out_of_memory();
        if (added) continue;
        struct json_object *s = json_object_new_object();
        if (!sp_json_add_string(s, "file", files->items[i]) ||
            !sp_json_add_string(s, "missing", missing) || !sp_json_append(skipped, s))
            rc = cli_out_of_memory();
        sp_textbuf_printf(&names, "%s%s (no %s)", num_skipped++ ? ", " : "", files->items[i],
                          missing);
    }
    if (!rc && num_skipped)
        fprintf(stderr,
                "scope-profiler: warning: stats --group-by: skipped %zu of %zu run%s "
                "without the key: %s\n",
                num_skipped, runs->count, runs->count == 1 ? "" : "s",
                cli_shown(sp_textbuf_str(&names) ? sp_textbuf_str(&names) : "?"));
    if (!rc && !gs.num_groups)
        rc = cli_usage_error("stats",
                             "--group-by: no run has every key asked for; see the keys a run has "
                             "with scope-profiler metadata FILE");
    if (!rc) {
        num_keys_sorting = keys->count;
        qsort(gs.groups, gs.num_groups, sizeof *gs.groups, by_values);
        char *text = NULL;
        sp_textbuf b = SP_TEXTBUF_INIT;
        if (format == STATS_GROUP_JSON) {
            text = json_out(&gs, files, skipped);
        } else {
            if (format == STATS_GROUP_CSV)
                csv_out(&b, &gs);
            else
                text_out(&b, &gs);
            text = sp_textbuf_take(&b);
        }
        rc = emit(text, output);
        free(text);
    }
    sp_textbuf_free(&names);
    json_object_put(skipped);
    free_grouping(&gs);
    return rc;
}
