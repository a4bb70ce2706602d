/*
 * duration_timeseries_data: per region and call index i, the i-th call of
 * every selected rank that made one (ranks with fewer calls drop out), as
 * the Python package's duration-over-time chart aggregates them: the mean
 * start from the run's first call, the mean, min and max duration, the ranks.
 */
#include <math.h>
#include <stdlib.h>

#include "common/error.h"
#include "export/plot_data_rows.h"

typedef struct rank_calls {
    double *start, *duration; /* seconds: durations from the int64 ns, exactly as stored */
    size_t n;
} rank_calls;

static void free_calls(rank_calls *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(c[i].start);
        free(c[i].duration);
    }
    free(c);
}

/* The calls of every selected rank with calls; *count receives how many ranks. */
static sp_status load_calls(const sp_mpi_region *reg, const sp_filter *f, rank_calls **out,
                            size_t *count, sp_error *err) {
    size_t nr = sp_mpi_region_num_ranks(reg), k = 0;
    rank_calls *c = calloc(nr ? nr : 1, sizeof *c);
    if (!c) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_status st = SP_OK;
    for (size_t i = 0; i < nr && st == SP_OK; i++) {
        uint32_t rank = sp_mpi_region_rank_id(reg, i);
        if (!sp_pd_rank_selected(f, rank)) continue;
        const sp_rank_region *rr = sp_mpi_region_rank(reg, rank, err);
        size_t n = rr ? (size_t)sp_rank_region_num_calls(rr) : 0;
        if (!n) continue;
        c[k].start = malloc(n * sizeof *c[k].start);
        c[k].duration = malloc(n * sizeof *c[k].duration);
        c[k].n = n;
        if (!c[k].start || !c[k].duration)
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        if (st == SP_OK) st = sp_rank_region_start_times(rr, c[k].start, n);
        if (st == SP_OK) st = sp_rank_region_durations(rr, c[k].duration, n);
        k++;
    }
    if (st != SP_OK) {
        free_calls(c, k);
        return st;
    }
    *out = c;
    *count = k;
    return SP_OK;
}

static void region_points(row_writer *w, const char *file, const char *region, const rank_calls *c,
                          size_t nranks, double first) {
    size_t most = 0;
    for (size_t k = 0; k < nranks; k++)
        if (c[k].n > most) most = c[k].n;
    for (size_t i = 0; i < most; i++) {
        double starts = 0, sum = 0, lo = INFINITY, hi = -INFINITY;
        size_t ranks = 0;
        for (size_t k = 0; k < nranks; k++) {
            if (c[k].n <= i) continue;
            double d = c[k].duration[i];
            starts += c[k].start[i] - first;
            sum += d;
            lo = fmin(lo, d);
            hi = fmax(hi, d);
            ranks++;
        }
        sp_pd_begin_row(w);
        sp_pd_text(w, "file", file, 1);
        sp_pd_text(w, "region", region, 0);
        sp_pd_integer(w, "call_index", (long long)i, 0);
        sp_pd_field_number(w, "time_seconds", starts / (double)ranks);
        sp_pd_field_number(w, "mean_duration_seconds", sum / (double)ranks);
        sp_pd_field_number(w, "min_duration_seconds", lo);
        sp_pd_field_number(w, "max_duration_seconds", hi);
        sp_pd_integer(w, "num_ranks", (long long)ranks, 0);
        sp_pd_end_row(w);
    }
}

sp_status sp_pd_timeseries_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err) {
    const sp_results *r = d->runs[run];
    sp_status need = sp_pd_need_events(d, run, "duration_timeseries_data", err);
    if (need != SP_OK) return need;
    size_t count;
    const sp_mpi_region **regions = sp_results_get_regions(r, d->filter, &count, err);
    if (!regions) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    double first = sp_results_minimum_start_time(r);
    sp_status st = SP_OK;
    for (size_t g = 0; g < count && st == SP_OK; g++) {
        rank_calls *c = NULL;
        size_t nranks = 0;
        st = load_calls(regions[g], d->filter, &c, &nranks, err);
        if (st != SP_OK) break;
        region_points(w, d->labels[run], sp_mpi_region_name(regions[g]), c, nranks, first);
        free_calls(c, nranks);
    }
    sp_region_list_free(regions);
    return st;
}
