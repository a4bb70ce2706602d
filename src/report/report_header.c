/* The report's header (what run this is) and its headline figures. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_internal.h"
#include "report/report_internal.h"

static void meta_field(sp_report *rp, const char *label, const char *value) {
    if (!value || !*value) return;
    sp_textbuf_append(rp->b, "<div><dt>");
    sp_report_text(rp, label);
    sp_textbuf_append(rp->b, "</dt><dd>");
    sp_report_text(rp, value);
    sp_textbuf_append(rp->b, "</dd></div>");
}

/* A metadata value as text ("" when absent). */
static void meta_text(const sp_results *r, const char *key, char *out, size_t size) {
    sp_metadata_item it;
    out[0] = '\0';
    if (!sp_results_metadata_find(r, key, &it)) return;
    if (it.type == SP_VALUE_STRING)
        snprintf(out, size, "%s", it.string_value);
    else if (it.type == SP_VALUE_INT)
        snprintf(out, size, "%" PRId64, it.int_value);
    else if (it.type == SP_VALUE_FLOAT)
        snprintf(out, size, "%g", it.float_value);
    else if (it.type == SP_VALUE_STRING_LIST && it.list_len)
        snprintf(out, size, "%s%s", it.list[0], it.list_len > 1 ? ", ..." : "");
}

static void card(sp_report *rp, const char *key, const char *value, const char *sub) {
    sp_textbuf_append(rp->b, "<div class=\"card\"><div class=\"k\">");
    sp_report_text(rp, key);
    sp_textbuf_append(rp->b, "</div><div class=\"v\">");
    sp_report_text(rp, value);
    sp_textbuf_append(rp->b, "</div><div class=\"s\">");
    sp_report_text(rp, sub);
    sp_textbuf_append(rp->b, "</div></div>\n");
}

static void headline(sp_report *rp) {
    char v[64], s[700];
    sp_textbuf_append(rp->b, "<section class=\"cards\" id=\"headline\">\n");
    sp_format_seconds(rp->wall, v, sizeof v);
    card(rp, "Wall time", v,
         isfinite(sp_results_total_time(rp->r)) ? "setup to finalize" : "first call to last end");
    double ranks = (double)sp_results_num_data_ranks(rp->r);
    double share = rp->wall > 0 && ranks > 0 ? rp->inside / (rp->wall * ranks) * 100 : NAN;
    if (isfinite(share))
        snprintf(v, sizeof v, "%.1f%%", share);
    else
        snprintf(v, sizeof v, "-");
    card(rp, "Inside regions", v, ranks > 1 ? "of the session, over all ranks" : "of the session");
    const sp_table_row *top = NULL, *worst = NULL;
    double top_own = 0;
    for (size_t i = 0; i < rp->rows->count; i++) {
        const sp_table_row *row = &rp->rows->rows[i];
        if (!row->has_timing || sp_report_is_session_row(row)) continue;
        double own = row->has_children && row->has_exclusive ? row->exclusive : row->total;
        if (!top || own > top_own) {
            top = row;
            top_own = own;
        }
        if (row->has_imbalance && (!worst || row->imbalance > worst->imbalance)) worst = row;
    }
    if (top) {
        snprintf(v, sizeof v, "%.1f%%", rp->session > 0 ? top_own / rp->session * 100 : 0.0);
        char t[32];
        sp_format_seconds(top_own, t, sizeof t);
        snprintf(s, sizeof s, "%s (%s own)", sp_report_path(top), t);
        card(rp, "Top hotspot", v, s);
    } else {
        card(rp, "Top hotspot", "-", "no timed calls");
    }
    if (worst && ranks > 1 && worst->imbalance > 0) {
        snprintf(v, sizeof v, "+%.1f%%", worst->imbalance);
        snprintf(s, sizeof s, "%s: slowest rank over the mean", sp_report_path(worst));
        card(rp, "Worst imbalance", v, s);
    } else {
        card(rp, "Worst imbalance", "-", ranks > 1 ? "balanced" : "one rank");
    }
    sp_textbuf_append(rp->b, "</section>\n");
}

sp_status sp_report_header(sp_report *rp, sp_error *err) {
    (void)err;
    const sp_results *r = rp->r;
    char buf[512], title[600];
    sp_textbuf_append(rp->b, "<header>\n<h1>");
    snprintf(title, sizeof title, "%s", rp->o->title ? rp->o->title : sp_results_display_label(r));
    sp_report_text(rp, title);
    sp_textbuf_append(rp->b, "</h1>\n<dl class=\"meta\">");
    meta_field(rp, "File", sp_results_path(r));
    meta_field(rp, "Label", sp_results_label(r));
    meta_text(r, "timestamp", buf, sizeof buf);
    meta_field(rp, "Date", buf);
    meta_text(r, "hostname", buf, sizeof buf);
    meta_field(rp, "Host", buf);
    snprintf(buf, sizeof buf, "%zu", sp_results_num_ranks(r));
    meta_field(rp, "Ranks", buf);
    size_t threads = sp_results_num_threads(r);
    snprintf(buf, sizeof buf, "%zu", threads ? threads : 1);
    meta_field(rp, sp_results_num_data_ranks(r) > 1 ? "Threads (all ranks)" : "Threads", buf);
    snprintf(buf, sizeof buf, "%zu", sp_results_num_regions(r));
    meta_field(rp, "Regions", buf);
    if (rp->num_runs > 1) {
        snprintf(buf, sizeof buf, "%zu (this one is the baseline)", rp->num_runs);
        meta_field(rp, "Runs", buf);
    }
    sp_textbuf_append(rp->b, "</dl>\n</header>\n");
    headline(rp);
    return SP_OK;
}
