/* The numbers behind the charts, CSV or JSON (export/plot_data.h). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/py_float.h"
#include "export/names.h"
#include "export/plot_data.h"
#include "export/plot_data_rows.h"
#include "plot/plot_internal.h"
#include "present/csv_escape.h"

const char *const SP_PLOT_DATA_METRICS[5] = {"total", "avg", "min", "max", "std"};

void sp_pd_number(sp_textbuf *out, double v) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(v, num);
    sp_textbuf_append(out, num);
}

void sp_pd_json_string(sp_textbuf *out, const char *s) {
    sp_name_append(out, s, SP_NAMES_JSON);
}

void sp_pd_begin_row(row_writer *w) {
    if (w->json) sp_textbuf_append(w->out, w->rows ? ",\n{" : "\n{");
    w->rows++;
}

void sp_pd_text(row_writer *w, const char *key, const char *value, int first) {
    if (w->json) {
        if (!first) sp_textbuf_putc(w->out, ',');
        sp_textbuf_printf(w->out, "\"%s\":", key);
        sp_pd_json_string(w->out, value);
    } else {
        if (!first) sp_textbuf_putc(w->out, ',');
        sp_csv_field(w->out, value, 0);
    }
}

void sp_pd_field_number(row_writer *w, const char *key, double value) {
    sp_textbuf_putc(w->out, ',');
    if (w->json) sp_textbuf_printf(w->out, "\"%s\":", key);
    sp_pd_number(w->out, value);
}

void sp_pd_integer(row_writer *w, const char *key, long long value, int first) {
    if (!first) sp_textbuf_putc(w->out, ',');
    if (w->json) sp_textbuf_printf(w->out, "\"%s\":", key);
    sp_textbuf_printf(w->out, "%lld", value);
}

void sp_pd_null(row_writer *w, const char *key) {
    sp_textbuf_putc(w->out, ',');
    if (w->json) sp_textbuf_printf(w->out, "\"%s\":null", key);
}

void sp_pd_end_row(row_writer *w) {
    sp_textbuf_append(w->out, w->json ? "}" : SP_CSV_EOL);
}

int sp_pd_rank_selected(const sp_filter *f, uint32_t rank) {
    if (!f || !f->num_ranks) return 1;
    for (size_t i = 0; i < f->num_ranks; i++)
        if (f->ranks[i] == rank) return 1;
    return 0;
}

const char *sp_pd_x(const sp_plot_data *d) {
    return d->x ? d->x : "mpi_size";
}

sp_status sp_pd_need_events(const sp_plot_data *d, size_t run, const char *kind, sp_error *err) {
    const sp_results *r = d->runs[run];
    if (sp_results_has_events(r)) return SP_OK;
    return sp_error_set(err, SP_ERR_UNAVAILABLE,
                        "%s holds aggregate statistics only (no calls): %s needs per-call "
                        "events; nothing written",
                        sp_results_path(r), kind);
}

static sp_status gantt_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err) {
    const sp_results *r = d->runs[run];
    sp_status need = sp_pd_need_events(d, run, "gantt_data", err);
    if (need != SP_OK) return need;
    size_t count;
    const sp_mpi_region **regions = sp_results_get_regions(r, d->filter, &count, err);
    if (!regions) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    double first = sp_results_minimum_start_time(r);
    sp_status st = SP_OK;
    for (size_t g = 0; g < count && st == SP_OK; g++) {
        const sp_mpi_region *reg = regions[g];
        for (size_t k = 0; k < sp_mpi_region_num_ranks(reg) && st == SP_OK; k++) {
            uint32_t rank = sp_mpi_region_rank_id(reg, k);
            if (!sp_pd_rank_selected(d->filter, rank)) continue;
            const sp_rank_region *rr = sp_mpi_region_rank(reg, rank, err);
            size_t n = rr ? (size_t)sp_rank_region_num_calls(rr) : 0;
            if (!rr || !n) continue;
            double *start = malloc(n * sizeof *start), *end = malloc(n * sizeof *end);
            if (!start || !end) {
                st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
            } else {
                st = sp_rank_region_start_times(rr, start, n);
                if (st == SP_OK) st = sp_rank_region_end_times(rr, end, n);
                char rank_text[16];
                snprintf(rank_text, sizeof rank_text, "%u", (unsigned)rank);
                for (size_t c = 0; c < n && st == SP_OK; c++) {
                    sp_pd_begin_row(w);
                    sp_pd_text(w, "file", d->labels[run], 1);
                    if (w->json)
                        sp_textbuf_printf(w->out, ",\"rank\":%s", rank_text);
                    else
                        sp_textbuf_printf(w->out, ",%s", rank_text);
                    sp_pd_text(w, "region", sp_mpi_region_name(reg), 0);
                    sp_pd_field_number(w, "start_seconds", start[c] - first);
                    sp_pd_field_number(w, "end_seconds", end[c] - first);
                    sp_pd_end_row(w);
                }
            }
            free(start);
            free(end);
        }
    }
    sp_region_list_free(regions);
    return st;
}

static double metric_value(const sp_summary_row *row, size_t metric) {
    switch (metric) {
    case 0:
        return row->total_duration;
    case 1:
        return row->average_duration;
    case 2:
        return row->min_duration;
    case 3:
        return row->max_duration;
    default:
        return row->std_duration;
    }
}

static long metric_index(const char *name) {
    for (size_t i = 0; i < 5; i++)
        if (strcmp(name, SP_PLOT_DATA_METRICS[i]) == 0) return (long)i;
    return -1;
}

static sp_status durations_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err) {
    sp_summary_rows *rows = sp_results_summary(d->runs[run], d->filter, 0, err);
    if (!rows) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    for (size_t m = 0; m < d->num_metrics; m++) {
        long metric = metric_index(d->metrics[m]);
        for (size_t i = 0; i < rows->count; i++) {
            sp_pd_begin_row(w);
            sp_pd_text(w, "file", d->labels[run], 1);
            sp_pd_text(w, "region", rows->rows[i].name, 0);
            sp_pd_text(w, "metric", d->metrics[m], 0);
            sp_pd_field_number(w, "value_seconds", metric_value(&rows->rows[i], (size_t)metric));
            sp_pd_end_row(w);
        }
    }
    sp_summary_rows_free(rows);
    return SP_OK;
}

/* "colors": the charts' colour of every region of the first run (its palette). */
static void put_colours(sp_textbuf *out, const sp_plot_data *d) {
    const sp_results *r = d->runs[0];
    sp_palette palette;
    sp_palette_build(r, &palette);
    const sp_palette *before = sp_palette_use(&palette);
    sp_textbuf_append(out, "],\n\"colors\":{");
    for (size_t g = 0; g < sp_results_num_regions(r); g++) {
        char colour[8];
        sp_region_colour(sp_results_region_name(r, g), colour);
        if (g) sp_textbuf_putc(out, ',');
        sp_pd_json_string(out, sp_results_region_name(r, g));
        sp_textbuf_printf(out, ":\"%s\"", colour);
    }
    sp_palette_use(before);
    sp_textbuf_putc(out, '}');
}

/* Per kind: the JSON "plot" and rows key, the CSV header, and the rows (per run, or once). */
typedef struct kind_info {
    const char *plot, *rows_key, *csv_header;
    sp_status (*run_rows)(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err);
    sp_status (*all_rows)(row_writer *w, const sp_plot_data *d, sp_error *err);
} kind_info;

static const kind_info KINDS[] = {
    {"gantt", "intervals", "file,rank,region,start_seconds,end_seconds", gantt_rows, NULL},
    {"durations", "bars", "file,region,metric,value_seconds", durations_rows, NULL},
    {"flame", "calls",
     "file,rank,call_id,parent_call_id,region,call_path,source_file,source_lineno,depth,"
     "start_seconds,end_seconds,inclusive_duration_seconds,exclusive_duration_seconds,thread",
     sp_pd_flame_rows, NULL},
    {"timeseries", "points",
     "file,region,call_index,time_seconds,mean_duration_seconds,min_duration_seconds,"
     "max_duration_seconds,num_ranks",
     sp_pd_timeseries_rows, NULL},
    {"speedup", "points", NULL, NULL, sp_pd_speedup_rows},
};

const char *sp_plot_data_name(sp_plot_data_kind kind) {
    static const char *const names[] = {"gantt_data", "durations_data", "flame_data",
                                        "duration_timeseries_data", "speedup_data"};
    return names[kind];
}

sp_status sp_plot_data_write(sp_textbuf *out, sp_plot_data_kind kind, const sp_plot_data *d,
                             sp_error *err) {
    for (size_t m = 0; kind == SP_PLOT_DATA_DURATIONS && m < d->num_metrics; m++)
        if (metric_index(d->metrics[m]) < 0)
            return sp_error_set(err, SP_ERR_BAD_OPTION,
                                "unknown duration metric \"%s\": choose from total, avg, min, "
                                "max, std",
                                d->metrics[m]);
    const kind_info *k = &KINDS[kind];
    row_writer w = {out, d->json, 0};
    if (d->json)
        sp_textbuf_printf(out,
                          "{\"format\":\"scope-profiler-plot-data\",\"format_version\":1,"
                          "\"plot\":\"%s\",\"%s\":[",
                          k->plot, k->rows_key);
    else if (k->csv_header)
        sp_textbuf_printf(out, "%s" SP_CSV_EOL, k->csv_header);
    else /* speedup: the x column is named after its key, as the package names it */
        sp_textbuf_printf(out, "region,%s,speedup,time_seconds,runs" SP_CSV_EOL, sp_pd_x(d));
    sp_status st = SP_OK;
    if (k->all_rows) st = k->all_rows(&w, d, err);
    for (size_t run = 0; k->run_rows && run < d->num_runs && st == SP_OK; run++)
        st = k->run_rows(&w, d, run, err);
    if (st == SP_OK && d->json) {
        put_colours(out, d);
        if (kind == SP_PLOT_DATA_DURATIONS) {
            sp_textbuf_append(out, ",\"metrics\":[");
            for (size_t m = 0; m < d->num_metrics; m++)
                sp_textbuf_printf(out, "%s\"%s\"", m ? "," : "", d->metrics[m]);
            sp_textbuf_putc(out, ']');
        }
        if (kind == SP_PLOT_DATA_SPEEDUP) sp_pd_speedup_options(out, d);
        sp_textbuf_append(out, "}\n");
    }
    if (st == SP_OK && sp_textbuf_failed(out))
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    return st;
}
