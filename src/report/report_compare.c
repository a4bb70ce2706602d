/* The report's part for several runs: the runs, and (comparison API of
 * include/scope_profiler/compare.h) the changes per region. */
#include <math.h>
#include <stdio.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"
#include "scope_profiler/compare.h"

#define MAX_CHANGES 40

static double wall_time(const sp_results *r) {
    double t = sp_results_total_time(r);
    return isfinite(t) && t > 0 ? t : sp_results_time_span(r);
}

static void runs_table(sp_report *rp) {
    sp_textbuf_append(rp->b, "<table id=\"runs\"><thead><tr><th class=\"name\">run</th><th "
                             "class=\"name\">file</th><th>ranks</th><th>threads</th><th>wall "
                             "time</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < rp->num_runs; i++) {
        const sp_results *r = rp->runs[i];
        sp_textbuf_append(rp->b, "<tr><td class=\"name\">");
        sp_report_text(rp, sp_results_display_label(r));
        if (i == 0) sp_textbuf_append(rp->b, " <span class=\"num\">(baseline)</span>");
        sp_textbuf_append(rp->b, "</td><td class=\"name\">");
        sp_report_text(rp, sp_results_path(r));
        size_t threads = sp_results_num_threads(r);
        sp_textbuf_printf(rp->b, "</td><td>%zu</td><td>%zu</td>", sp_results_num_ranks(r),
                          threads ? threads : 1);
        sp_report_seconds_cell(rp, wall_time(r));
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    sp_textbuf_append(rp->b, "</tbody></table>\n");
}

/* One card per run against the baseline, on wall time (setup to finalize):
 * the figure a user compares first, and one that sums over no ranks. */
static void verdict_cards(sp_report *rp) {
    double base = wall_time(rp->runs[0]);
    sp_textbuf_append(rp->b, "<div class=\"cards\" id=\"verdicts\">\n");
    for (size_t k = 1; k < rp->num_runs; k++) {
        double t = wall_time(rp->runs[k]);
        char v[64], a[32], b[32];
        sp_format_seconds(base, a, sizeof a);
        sp_format_seconds(t, b, sizeof b);
        const char *cls = "";
        if (!(base > 0) || !(t > 0) || !isfinite(base) || !isfinite(t)) {
            snprintf(v, sizeof v, "-");
        } else if (t <= base) {
            snprintf(v, sizeof v, "%.2fx faster", base / t);
            cls = " faster";
        } else {
            snprintf(v, sizeof v, "%.2fx slower", t / base);
            cls = " slower";
        }
        sp_textbuf_append(rp->b, "<div class=\"card\"><div class=\"k\">");
        sp_report_text(rp, sp_results_display_label(rp->runs[k]));
        sp_textbuf_printf(rp->b, "</div><div class=\"v%s\">", cls);
        sp_report_text(rp, v);
        sp_textbuf_append(rp->b, "</div><div class=\"s\">wall time ");
        sp_report_text(rp, b);
        sp_textbuf_append(rp->b, " against ");
        sp_report_text(rp, a);
        sp_textbuf_append(rp->b, " (baseline)</div></div>\n");
    }
    sp_textbuf_append(rp->b, "</div>\n");
}

static void verdict_cell(sp_report *rp, const sp_compare_row *row) {
    const char *text = sp_verdict_text(row->sig.verdict);
    const char *cls = row->sig.verdict == SP_VERDICT_SLOWER   ? " class=\"slower\""
                      : row->sig.verdict == SP_VERDICT_FASTER ? " class=\"faster\""
                                                              : "";
    sp_textbuf_printf(rp->b, "<td%s style=\"text-align:left\">", cls);
    sp_report_text(rp, text);
    sp_textbuf_append(rp->b, "</td>");
}

/* One table per run against the baseline: the comparison stage's rows
 * (largest changes first) with their significance verdicts. */
static sp_status changes(sp_report *rp, size_t k, sp_error *err) {
    sp_compare_options co = {0};
    co.metric = SP_METRIC_TOTAL;
    co.sort = SP_COMPARE_SORT_DELTA;
    co.filter = rp->o->filter;
    co.significance = 1;
    sp_error e = {0};
    sp_comparison *cmp = sp_compare(&rp->runs[0], 1, &rp->runs[k], 1, &co, &e);
    sp_textbuf_append(rp->b, "<h3 class=\"note\">");
    sp_report_text(rp, sp_results_display_label(rp->runs[k]));
    sp_textbuf_append(rp->b, " against ");
    sp_report_text(rp, sp_results_display_label(rp->runs[0]));
    sp_textbuf_append(rp->b, "</h3>\n");
    if (!cmp) {
        if (e.status == SP_ERR_OUT_OF_MEMORY) {
            if (err) *err = e;
            return e.status;
        }
        sp_textbuf_append(rp->b, "<p class=\"note\">Not compared: ");
        sp_report_text(rp, e.message);
        sp_textbuf_append(rp->b, "</p>\n");
        return SP_OK;
    }
    sp_textbuf_printf(rp->b,
                      "<div class=\"scroll\"><table class=\"sortable changes\"><thead><tr><th class=\"name\">region</th>"
                      "<th>baseline</th><th>this run</th><th>change</th><th>change %%</th>"
                      "<th>b/a</th><th>%.0f%% interval</th><th>verdict</th></tr></thead><tbody>\n",
                      (1 - cmp->level) * 100);
    for (size_t i = 0; i < cmp->count && i < MAX_CHANGES; i++) {
        const sp_compare_row *row = &cmp->rows[i];
        sp_textbuf_append(rp->b, "<tr data-name=\"");
        sp_report_text(rp, row->name);
        sp_textbuf_append(rp->b, "\"><td class=\"name\">");
        sp_report_name(rp, row->name);
        sp_textbuf_append(rp->b, "</td>");
        sp_report_seconds_cell(rp, row->in_a ? row->a : NAN);
        sp_report_seconds_cell(rp, row->in_b ? row->b : NAN);
        char d[32];
        sp_format_seconds(fabs(row->delta), d, sizeof d);
        sp_textbuf_printf(rp->b, "<td data-v=\"%.9g\">%s%s</td>", row->delta,
                          row->delta < 0 ? "\xE2\x88\x92" : "+", d);
        if (row->has_pct)
            sp_textbuf_printf(rp->b, "<td data-v=\"%.6g\">%+.1f%%</td>", row->pct, row->pct);
        else
            sp_textbuf_append(rp->b, "<td data-v=\"\">-</td>");
        if (isfinite(row->sig.ratio))
            sp_textbuf_printf(rp->b, "<td data-v=\"%.6g\">%.3f</td><td>[%.3f, %.3f]</td>",
                              row->sig.ratio, row->sig.ratio, row->sig.ratio_low,
                              row->sig.ratio_high);
        else
            sp_textbuf_append(rp->b, "<td data-v=\"\">-</td><td>-</td>");
        verdict_cell(rp, row);
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    sp_textbuf_append(rp->b, "</tbody></table></div>\n");
    if (cmp->count > MAX_CHANGES)
        sp_textbuf_printf(rp->b, "<p class=\"note\">%zu smaller changes not shown.</p>\n",
                          cmp->count - MAX_CHANGES);
    sp_comparison_free(cmp);
    return SP_OK;
}

static int differ_in(const sp_report *rp, const char *key) {
    sp_metadata_item a, b;
    int has_a = sp_results_metadata_find(rp->runs[0], key, &a);
    for (size_t i = 1; i < rp->num_runs; i++) {
        int has_b = sp_results_metadata_find(rp->runs[i], key, &b);
        if (has_a != has_b) return 1;
        if (has_a && a.type == SP_VALUE_INT && b.type == SP_VALUE_INT && a.int_value != b.int_value)
            return 1;
    }
    return 0;
}

sp_status sp_report_comparison(sp_report *rp, sp_error *err) {
    sp_textbuf_append(rp->b, "<section id=\"comparison\"><h2>Runs compared</h2>\n<p "
                             "class=\"note\">The first run is the baseline. Changes in total "
                             "time per region, largest first; b/a is the ratio of the mean time "
                             "per call with its interval, and the verdict tells a change from "
                             "noise (docs/compare.md); totals are summed over ranks, so runs on "
                             "more ranks add more rank-seconds: the cards compare wall time.</p>\n");
    verdict_cards(rp);
    runs_table(rp);
    sp_status st = SP_OK;
    for (size_t k = 1; k < rp->num_runs && st == SP_OK; k++) {
        st = changes(rp, k, err);
        if (st == SP_OK) st = sp_report_diff_flame(rp, k, err);
    }
    const char *x = differ_in(rp, "mpi_size")          ? "mpi_size"
                    : differ_in(rp, "omp_num_threads") ? "omp_num_threads"
                                                       : NULL;
    if (st == SP_OK && x) {
        sp_plot_options po = {0};
        po.filter = rp->o->filter;
        po.width = rp->o->width;
        po.x = x;
        sp_error e = {0};
        sp_textbuf_append(rp->b, "<div class=\"chart\" id=\"chart-speedup\">\n");
        st = sp_plot_render(rp->runs, rp->num_runs, SP_PLOT_SPEEDUP, &po, 0, rp->b, &e);
        if (st != SP_OK && st != SP_ERR_OUT_OF_MEMORY) {
            sp_textbuf_append(rp->b, "<p class=\"note\">No speedup chart: ");
            sp_report_text(rp, e.message);
            sp_textbuf_append(rp->b, "</p>\n");
            st = SP_OK;
        } else if (st && err) {
            *err = e;
        }
        sp_textbuf_append(rp->b, "</div>\n");
    }
    sp_textbuf_append(rp->b, "</section>\n");
    return st;
}
