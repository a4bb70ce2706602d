/*
 * sp_scaling_compute(): per region, the time at each x (runs at one x
 * averaged), speedup t(x0) / t(x) against the smallest x, and parallel
 * efficiency: speedup / (x / x0), or t(x0) / t(x) for weak scaling.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/suggest.h"
#include "common/error.h"
#include "common/text_buffer.h"
#include "compare/compare_internal.h"

/* A metadata value as a number (an int, a float, or a text that is one). */
static int item_number(const sp_metadata_item *item, double *out) {
    if (item->type == SP_VALUE_INT) {
        *out = (double)item->int_value;
        return 1;
    }
    if (item->type == SP_VALUE_FLOAT) {
        *out = item->float_value;
        return isfinite(*out);
    }
    if (item->type == SP_VALUE_STRING && item->string_value && *item->string_value) {
        char *end;
        *out = strtod(item->string_value, &end);
        return *end == '\0' && isfinite(*out);
    }
    return 0;
}

/* The error names the closest usable axis and lists only the numeric ones
 * (a timestamp or a label cannot be an axis). */
static sp_status missing_field(const sp_results *r, const char *key, sp_error *err) {
    size_t n = sp_results_num_metadata(r), count = 0;
    const char **names = malloc((n + 2) * sizeof *names);
    if (!names) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    names[count++] = "mpi_size";
    for (size_t i = 0; i < n; i++) {
        sp_metadata_item item;
        double v;
        if (!sp_results_metadata_at(r, i, &item) || !item_number(&item, &v)) continue;
        if (strcmp(item.key, "mpi_size") == 0) continue;
        names[count++] = item.key;
        if (strcmp(item.key, "omp_num_threads") == 0) names[count++] = "total_cores";
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    for (size_t i = 0; i < count && b.len <= 700; i++)
        sp_textbuf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    if (b.len > 700) sp_textbuf_append(&b, ", ...");
    long close = sp_suggest_name(key, names, count);
    sp_status st = sp_error_set(
        err, SP_ERR_BAD_OPTION, "%s has no metadata field '%s'%s%s%s (numeric fields: %s)",
        sp_results_path_text(r), key, close >= 0 ? ": did you mean '" : "",
        close >= 0 ? names[close] : "", close >= 0 ? "'?" : "",
        sp_textbuf_str(&b) ? sp_textbuf_str(&b) : "mpi_size");
    sp_textbuf_free(&b);
    free(names);
    return st;
}

static sp_status metadata_number(const sp_results *r, const char *key, double *out, sp_error *err) {
    sp_metadata_item item;
    if (!sp_results_metadata_find(r, key, &item)) return missing_field(r, key, err);
    if (item_number(&item, out)) return SP_OK;
    return sp_error_set(err, SP_ERR_BAD_OPTION,
                        "%s: metadata field '%s' is not a number, so it cannot be a scaling axis",
                        sp_results_path_text(r), key);
}

static sp_status x_value(const sp_results *r, const char *x, double *out, sp_error *err) {
    if (strcmp(x, "mpi_size") == 0) {
        *out = (double)sp_results_num_ranks(r);
        return SP_OK;
    }
    if (strcmp(x, "total_cores") == 0) {
        sp_status st = metadata_number(r, "omp_num_threads", out, err);
        if (st == SP_OK) *out *= (double)sp_results_num_ranks(r);
        return st;
    }
    return metadata_number(r, x, out, err);
}

/* The region's time in one run; 0 when it made no call on the selected ranks. */
static sp_status run_time(const sp_mpi_region *reg, const sp_scaling_options *o, double *out,
                          sp_error *err) {
    sp_pool_stats p;
    sp_status st = sp_region_pool_stats(reg, o->filter.ranks, o->filter.num_ranks, &p, err);
    *out = 0.0;
    if (st != SP_OK || !p.count) return st;
    if (!o->total) {
        *out = p.average;
        return SP_OK;
    }
    size_t ranks_with_calls = 0;
    for (size_t i = 0; i < sp_mpi_region_num_ranks(reg); i++) {
        uint32_t rank = sp_mpi_region_rank_id(reg, i);
        int selected = !o->filter.num_ranks;
        for (size_t k = 0; !selected && k < o->filter.num_ranks; k++)
            selected = o->filter.ranks[k] == rank;
        const sp_rank_region *rr = selected ? sp_mpi_region_rank(reg, rank, NULL) : NULL;
        if (rr && sp_rank_region_num_calls(rr)) ranks_with_calls++;
    }
    *out = ranks_with_calls ? p.total / (double)ranks_with_calls : 0.0;
    return SP_OK;
}

static int by_value(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

static size_t x_index(const sp_scaling *s, double x) {
    size_t i = 0;
    while (i + 1 < s->num_x && s->xs[i] != x)
        i++;
    return i;
}

static sp_status axis(sp_scaling *s, const sp_results *const *runs, size_t n, double *run_x,
                      sp_error *err) {
    for (size_t i = 0; i < n; i++) {
        sp_status st = x_value(runs[i], s->x_name, &run_x[i], err);
        if (st != SP_OK) return st;
    }
    memcpy(s->xs, run_x, n * sizeof *run_x);
    qsort(s->xs, n, sizeof *s->xs, by_value);
    for (size_t i = 0; i < n; i++)
        if (!s->num_x || s->xs[s->num_x - 1] != s->xs[i]) s->xs[s->num_x++] = s->xs[i];
    if (s->num_x < 2)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "every file has %s = %g: scaling needs runs at two or more values",
                            s->x_name, s->xs[0]);
    for (size_t i = 0; i < n; i++)
        s->runs_at_x[x_index(s, run_x[i])]++;
    return SP_OK;
}

static void derive(sp_scaling *s, sp_scaling_region *reg) {
    const sp_scaling_point *base = &reg->points[0];
    for (size_t k = 0; k < s->num_x; k++) {
        sp_scaling_point *p = &reg->points[k];
        if (p->has_time) p->time /= p->runs;
        p->speedup = p->efficiency = NAN;
        if (!p->has_time || !base->has_time || !(p->time > 0.0)) continue;
        p->speedup = base->time / p->time;
        p->efficiency = s->weak ? p->speedup : p->speedup / (s->xs[k] / s->xs[0]);
    }
}

/* One region over every run; 0 (skipped) when a run lacks it. */
static sp_status region_curve(sp_scaling *s, const char *name, const sp_results *const *runs,
                              size_t n, const double *run_x, const sp_scaling_options *o,
                              sp_error *err) {
    for (size_t i = 0; i < n; i++)
        if (sp_results_find(runs[i], name) < 0) return SP_OK;
    sp_scaling_region *reg = &s->regions[s->num_regions];
    reg->points = calloc(s->num_x, sizeof *reg->points);
    reg->run_times = malloc(n * sizeof *reg->run_times);
    if (!reg->points || !reg->run_times || !(reg->name = strdup(name))) {
        free(reg->points);
        free(reg->run_times);
        reg->points = NULL;
        reg->run_times = NULL;
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    s->num_regions++;
    for (size_t i = 0; i < n; i++) {
        double t;
        const sp_mpi_region *mr =
            sp_results_region_at(runs[i], (size_t)sp_results_find(runs[i], name));
        sp_status st = run_time(mr, o, &t, err);
        if (st != SP_OK) return st;
        reg->run_times[i] = t > 0.0 ? t : NAN;
        if (!(t > 0.0)) continue;
        sp_scaling_point *p = &reg->points[x_index(s, run_x[i])];
        p->has_time = 1;
        p->time += t;
        p->runs++;
    }
    derive(s, reg);
    return SP_OK;
}

static sp_status compute(sp_scaling *s, const sp_results *const *runs, size_t n,
                         const sp_scaling_options *o, sp_error *err) {
    double *run_x = s->run_x = malloc(n * sizeof *run_x);
    s->num_runs = n;
    s->xs = malloc(n * sizeof *s->xs);
    s->runs_at_x = calloc(n, sizeof *s->runs_at_x);
    if (!run_x || !s->xs || !s->runs_at_x) {
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    sp_status st = axis(s, runs, n, run_x, err);
    size_t count = 0;
    const sp_mpi_region **list = NULL;
    if (st == SP_OK && !(list = sp_results_get_regions(runs[0], &o->filter, &count, err)))
        st = err->status;
    if (st == SP_OK && !(s->regions = calloc(count + 1, sizeof *s->regions)))
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; st == SP_OK && i < count; i++)
        st = region_curve(s, sp_mpi_region_name(list[i]), runs, n, run_x, o, err);
    sp_region_list_free(list);
    if (st == SP_OK) sp_scaling_computation(s, runs, n);
    return st;
}

sp_scaling *sp_scaling_compute(const sp_results *const *runs, size_t num_runs,
                               const sp_scaling_options *options, sp_error *err) {
    sp_error local;
    if (!err) err = &local;
    sp_error_clear(err);
    sp_scaling_options o = {0};
    if (options) o = *options;
    if (num_runs < 2) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "scaling needs at least two files (got %zu)",
                     num_runs);
        return NULL;
    }
    sp_scaling *s = calloc(1, sizeof *s);
    if (!s || !(s->x_name = strdup(o.x && *o.x ? o.x : "mpi_size"))) {
        free(s);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    s->weak = o.weak != 0;
    s->metric = o.total ? SP_METRIC_TOTAL : SP_METRIC_AVG;
    if (compute(s, runs, num_runs, &o, err) != SP_OK) {
        sp_scaling_free(s);
        return NULL;
    }
    return s;
}

void sp_scaling_free(sp_scaling *s) {
    if (!s) return;
    for (size_t i = 0; s->regions && i < s->num_regions; i++) {
        free(s->regions[i].name);
        free(s->regions[i].points);
        free(s->regions[i].run_times);
    }
    free(s->run_x);
    free(s->useful);
    free(s->computation_scalability);
    free(s->regions);
    free(s->xs);
    free(s->runs_at_x);
    free(s->x_name);
    free(s);
}
