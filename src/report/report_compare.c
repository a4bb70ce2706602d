/* The report's part for several runs: the runs, and (comparison API of
 * include/scope_profiler/compare.h) the changes per region. */
#include <math.h>
#include <stdio.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

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

sp_status sp_report_comparison(sp_report *rp, sp_error *err) {
    (void)err;
    sp_textbuf_append(rp->b, "<section id=\"comparison\"><h2>Runs compared</h2>\n");
    runs_table(rp);
    sp_textbuf_append(rp->b, "</section>\n");
    return SP_OK;
}
