/* The report's header (what run this is) and its headline figures. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_internal.h"
#include "report/report_internal.h"
#include "waits/waits.h"

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

static int is_mpi(const sp_table_row *row) {
    return strncmp(row->name, "MPI_", 4) == 0;
}

/* The path whose slowest member (rank or thread) is furthest over the mean,
 * in seconds; mpi selects MPI_* paths (where ranks wait) or the others (where
 * the imbalance is caused). */
static const sp_table_row *largest_excess(const sp_report *rp, int by_rank, int mpi,
                                          double *excess) {
    const sp_table_row *best = NULL;
    *excess = 0;
    for (size_t i = 0; i < rp->rows->count; i++) {
        const sp_table_row *row = &rp->rows->rows[i];
        if (!row->has_balance || sp_report_is_session_row(row) || is_mpi(row) != mpi) continue;
        const sp_balance *b = by_rank ? &row->rank_balance : &row->thread_balance;
        if (b->count < 2 || !(b->imbalance > 0)) continue;
        double e = b->max - b->mean;
        if (e > *excess) {
            *excess = e;
            best = row;
        }
    }
    return best;
}

/* Worst imbalance: the non-MPI path with the largest excess time, over ranks
 * (or threads on one rank), and the MPI wait beside it. */
static void imbalance_card(sp_report *rp, int several_ranks) {
    double excess, wait;
    int by_rank = several_ranks;
    const sp_table_row *worst = largest_excess(rp, by_rank, 0, &excess);
    const sp_table_row *mpi = by_rank ? largest_excess(rp, 1, 1, &wait) : NULL;
    if (!worst && !by_rank) {
        card(rp, "Worst imbalance", "-",
             sp_results_num_threads(rp->r) > 1 ? "balanced" : "one rank");
        return;
    }
    if (!worst) worst = mpi, excess = wait, mpi = NULL;
    if (!worst) {
        int measured = 0;
        for (size_t i = 0; i < rp->rows->count; i++)
            measured |= rp->rows->rows[i].has_balance;
        card(rp, "Worst imbalance", "-", measured ? "balanced" : "no per-call events");
        return;
    }
    const sp_balance *b = by_rank ? &worst->rank_balance : &worst->thread_balance;
    char v[64], e[32], w[32], who[240], s[900];
    sp_format_seconds(excess, e, sizeof e);
    snprintf(v, sizeof v, "+%s", e);
    int outside = by_rank && worst->has_outside && worst->outside_balance.count;
    if (by_rank)
        snprintf(who, sizeof who, "rank %u",
                 outside ? worst->outside_balance.slowest_rank : b->slowest_rank);
    else
        sp_lane_name(rp->r, b->slowest_rank, b->slowest_thread, who, sizeof who);
    int n = outside /* with the wait states: who works longest, not who waits longest */
                ? snprintf(s, sizeof s,
                           "%s: +%.1f%% over the mean; %s has the most time outside "
                           "MPI waits",
                           sp_report_path(worst), b->imbalance * 100, who)
                : snprintf(s, sizeof s, "%s: %s over the mean (+%.1f%%)", sp_report_path(worst),
                           who, b->imbalance * 100);
    if (mpi && n > 0 && (size_t)n < sizeof s) {
        sp_format_seconds(wait, w, sizeof w);
        snprintf(s + n, sizeof s - (size_t)n, "; the other ranks wait in %s (up to +%s)",
                 sp_report_path(mpi), w);
    }
    card(rp, by_rank ? "Worst imbalance" : "Worst thread imbalance", v, s);
}

/* With MPI peer records (issue 25): the computation that makes the other
 * ranks wait longest, and how long they wait for it. */
static void wait_cause_card(sp_report *rp) {
    const char *path = sp_results_path(rp->r);
    sp_waits w;
    int present = 0;
    sp_error err = {0};
    if (!path || sp_waits_of_file(path, SP_WAITS_EAGER_BYTES, &w, &present, &err) || !present)
        return;
    sp_wait_cause c;
    if (sp_waits_largest_cause(&w, &c)) {
        static const char session[] = "scope_profiler.session > ";
        const char *late = c.late_path;
        if (strncmp(late, session, sizeof session - 1) == 0) late += sizeof session - 1;
        char v[32], t[32], s[700];
        snprintf(v, sizeof v, "rank %u", c.late_rank);
        sp_format_seconds((double)c.wait_ns / 1e9, t, sizeof t);
        snprintf(s, sizeof s, "%s: the other ranks wait %s for it",
                 late[0] ? late : "outside any region", t);
        card(rp, "Cause of waiting", v, s);
    }
    sp_waits_free(&w);
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
    const sp_table_row *top = NULL;
    double top_own = 0;
    for (size_t i = 0; i < rp->rows->count; i++) {
        const sp_table_row *row = &rp->rows->rows[i];
        if (!row->has_timing || sp_report_is_session_row(row)) continue;
        double own = row->has_children && row->has_exclusive ? row->exclusive : row->total;
        if (!top || own > top_own) {
            top = row;
            top_own = own;
        }
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
    imbalance_card(rp, ranks > 1);
    if (ranks > 1) wait_cause_card(rp);
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
