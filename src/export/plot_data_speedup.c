/*
 * speedup_data: per region and x (mpi_size, or another numeric metadata
 * key), the speedup t(x0) / t(x) against the smallest x, as our speedup
 * chart draws it (the comparison stage's scaling numbers: the total per
 * rank, runs at one x averaged), in the Python package's columns (region,
 * the key, speedup) plus the time and the runs it comes from.
 */
#include <math.h>

#include "common/error.h"
#include "export/plot_data_rows.h"
#include "scope_profiler/compare.h"

static sp_scaling *study(const sp_plot_data *d, sp_error *err) {
    sp_scaling_options o = {0};
    o.x = sp_pd_x(d);
    o.total = 1;
    if (d->filter) o.filter = *d->filter;
    return sp_scaling_compute(d->runs, d->num_runs, &o, err);
}

/* An x as the package writes its keys: an integer without ".0", else repr. */
static void x_field(row_writer *w, const char *key, double x) {
    if (x == floor(x) && fabs(x) < 1e15)
        sp_pd_integer(w, key, (long long)x, 0);
    else
        sp_pd_field_number(w, key, x);
}

sp_status sp_pd_speedup_rows(row_writer *w, const sp_plot_data *d, sp_error *err) {
    sp_scaling *s = study(d, err);
    if (!s) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    if (!s->num_regions) {
        sp_scaling_free(s);
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "no selected region has calls in every run");
    }
    for (size_t g = 0; g < s->num_regions; g++)
        for (size_t k = 0; k < s->num_x; k++) {
            const sp_scaling_point *p = &s->regions[g].points[k];
            if (!p->has_time || !isfinite(p->speedup)) continue;
            sp_pd_begin_row(w);
            sp_pd_text(w, "region", s->regions[g].name, 1);
            x_field(w, s->x_name, s->xs[k]);
            sp_pd_field_number(w, "speedup", p->speedup);
            sp_pd_field_number(w, "time_seconds", p->time);
            sp_pd_integer(w, "runs", p->runs, 0);
            sp_pd_end_row(w);
        }
    sp_scaling_free(s);
    return SP_OK;
}

void sp_pd_speedup_options(sp_textbuf *out, const sp_plot_data *d) {
    sp_scaling *s = study(d, NULL);
    if (!s) {
        out->failed = 1;
        return;
    }
    sp_textbuf_append(out, ",\"options\":{\"x_field\":");
    sp_pd_json_string(out, s->x_name);
    row_writer w = {out, 1, 0};
    x_field(&w, "baseline", s->xs[0]);
    sp_textbuf_append(out, ",\"time\":\"total per rank\"}");
    sp_scaling_free(s);
}
