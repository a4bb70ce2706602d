/* The report's charts: the SVG of plot.h, inline; a chart a file cannot
 * give becomes a note saying why. */
#include <stdio.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

static sp_status chart(sp_report *rp, const sp_results *const *runs, size_t n, sp_plot_kind kind,
                       const char *heading, sp_error *err) {
    sp_plot_options po = {0};
    po.filter = rp->o->filter;
    po.width = rp->o->width;
    sp_textbuf_printf(rp->b, "<div class=\"chart\" id=\"chart-%s\" aria-label=\"",
                      sp_plot_kind_name(kind));
    sp_report_text(rp, heading);
    sp_textbuf_append(rp->b, "\">\n");
    sp_error e = {0};
    sp_status st = sp_plot_render(runs, n, kind, &po, 0, rp->b, &e);
    if (st == SP_ERR_UNAVAILABLE || st == SP_ERR_NESTING || st == SP_ERR_BAD_OPTION) {
        sp_textbuf_append(rp->b, "<p class=\"note\">Not drawn: ");
        sp_report_text(rp, e.message);
        sp_textbuf_append(rp->b, "</p>\n");
        st = SP_OK;
    } else if (st) {
        if (err) *err = e;
    }
    sp_textbuf_append(rp->b, "</div>\n");
    return st;
}

sp_status sp_report_charts(sp_report *rp, sp_error *err) {
    const sp_results *one[1] = {rp->r};
    sp_textbuf_append(rp->b, "<section id=\"charts\"><h2>Charts</h2>\n<p class=\"note\">Hover "
                             "a bar for its values; the filter box dims the other "
                             "regions.</p>\n");
    sp_status st = chart(rp, one, 1, SP_PLOT_DURATIONS, "Total time per region", err);
    if (!st) st = chart(rp, one, 1, SP_PLOT_FLAME_GRAPH, "Flame graph of the call paths", err);
    if (!st) st = chart(rp, one, 1, SP_PLOT_GANTT, "Every call on the time axis", err);
    if (!st) st = chart(rp, one, 1, SP_PLOT_FLAME_CHART, "Call stacks over time", err);
    if (!st && sp_results_num_data_ranks(rp->r) > 1)
        st = chart(rp, one, 1, SP_PLOT_IMBALANCE, "Per-rank totals", err);
    if (!st) st = chart(rp, one, 1, SP_PLOT_HISTOGRAM, "Call durations of the largest region", err);
    sp_textbuf_append(rp->b, "</section>\n");
    return st;
}
