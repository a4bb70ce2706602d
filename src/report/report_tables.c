/* The report's tables: hotspots, the region tree, load balance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

#define MAX_HOTSPOTS 25
#define MAX_BALANCE  40
#define MAX_TREE_ROWS 2000 /* paths listed in the region tree (the rest are counted) */

static double own_time(const sp_table_row *row) {
    return row->has_children && row->has_exclusive ? row->exclusive : row->total;
}

static void swatch(sp_report *rp, const char *name) {
    char fill[8];
    sp_region_colour(name, fill);
    sp_textbuf_printf(rp->b, "<span class=\"sw\" style=\"background:%s\"></span>", fill);
}

static void share_cell(sp_report *rp, double part) {
    double pct = rp->session > 0 ? part / rp->session * 100 : NAN;
    if (!isfinite(pct)) {
        sp_textbuf_append(rp->b, "<td data-v=\"\">-</td>");
        return;
    }
    sp_textbuf_printf(rp->b,
                      "<td data-v=\"%.6g\">%.1f%%<span class=\"bar\" style=\"width:%.0fpx\">"
                      "</span></td>",
                      pct, pct, fmin(80, fmax(1, pct * 0.8)));
}

/* --- hotspots ------------------------------------------------------------ */

static int by_own_desc(const void *a, const void *b) {
    double x = own_time(*(const sp_table_row *const *)a);
    double y = own_time(*(const sp_table_row *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

sp_status sp_report_hotspots(sp_report *rp, sp_error *err) {
    const sp_table_rows *t = rp->rows;
    const sp_table_row **list = malloc((t->count ? t->count : 1) * sizeof *list);
    if (!list) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].has_timing && own_time(&t->rows[i]) > 0) {
            list[n++] = &t->rows[i];
            sum += own_time(&t->rows[i]);
        }
    qsort(list, n, sizeof *list, by_own_desc);
    sp_textbuf_append(rp->b,
                      "<section id=\"hotspots\"><h2>Hotspots</h2>\n<p class=\"note\">Where the "
                      "time goes: every call path's own time (a leaf's whole time, a parent's "
                      "time outside its children), largest first; the rows add up to the "
                      "session.</p>\n<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th class=\"name\">call "
                      "path</th><th>own time</th><th>share of session</th></tr></thead><tbody>\n");
    size_t shown = n < MAX_HOTSPOTS ? n : MAX_HOTSPOTS;
    double rest = sum;
    for (size_t i = 0; i < shown; i++) {
        const sp_table_row *row = list[i];
        double own = own_time(row);
        rest -= own;
        if (sp_report_is_session_row(row)) {
            sp_textbuf_append(rp->b, "<tr><td class=\"name\">(outside any region)</td>");
        } else {
            sp_textbuf_append(rp->b, "<tr data-name=\"");
            sp_report_text(rp, row->name);
            sp_textbuf_append(rp->b, "\"><td class=\"name\">");
            swatch(rp, row->name);
            sp_report_name(rp, sp_report_path(row));
            if (row->has_children) sp_textbuf_append(rp->b, " <span class=\"num\">(own)</span>");
            sp_textbuf_append(rp->b, "</td>");
        }
        sp_report_seconds_cell(rp, own);
        share_cell(rp, own);
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    if (shown < n) {
        sp_textbuf_printf(rp->b, "<tr><td class=\"name\">(%zu more call paths)</td>", n - shown);
        sp_report_seconds_cell(rp, rest > 0 ? rest : 0);
        share_cell(rp, rest > 0 ? rest : 0);
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    double outside = rp->session - sum;
    if (outside > rp->session * 1e-9 && outside > 0) {
        sp_textbuf_append(rp->b, "<tr><td class=\"name\">(outside any region)</td>");
        sp_report_seconds_cell(rp, outside);
        share_cell(rp, outside);
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    sp_textbuf_append(rp->b, "</tbody></table></div>\n</section>\n");
    free(list);
    return SP_OK;
}

/* --- the region tree ---------------------------------------------------------- */

static void number_cell(sp_report *rp, unsigned long long v) {
    sp_textbuf_printf(rp->b, "<td data-v=\"%llu\">%llu</td>", v, v);
}

static void tree_row(sp_report *rp, const sp_table_row *row, size_t id, long parent, int own) {
    sp_textbuf *b = rp->b;
    sp_textbuf_printf(b, "<tr data-id=\"%zu%s\"", id, own ? "o" : "");
    if (parent >= 0) sp_textbuf_printf(b, " data-parent=\"%ld\"", parent);
    if (own) sp_textbuf_printf(b, " data-parent=\"%zu\" class=\"own\"", id);
    sp_textbuf_append(b, " data-name=\"");
    sp_report_text(rp, row->name);
    sp_textbuf_printf(b, "\"><td class=\"name\" style=\"padding-left:%dpx\">",
                      8 + 18 * (row->depth + own));
    if (own) {
        sp_textbuf_append(b, "<span class=\"tgsp\"></span>(own)</td><td data-v=\"\"></td>");
        sp_report_seconds_cell(rp, row->exclusive);
        sp_report_seconds_cell(rp, row->exclusive);
        sp_textbuf_append(b, "<td data-v=\"\"></td><td data-v=\"\"></td><td data-v=\"\"></td>");
        share_cell(rp, sp_table_row_own_coverage(row)); /* wall clock: within 100 % */
        sp_textbuf_append(b, "<td data-v=\"\"></td></tr>\n");
        return;
    }
    if (row->has_children)
        sp_textbuf_append(b, "<button class=\"tg\" aria-expanded=\"true\" title=\"collapse or "
                             "expand\">\xE2\x96\xBE</button>");
    else
        sp_textbuf_append(b, "<span class=\"tgsp\"></span>");
    swatch(rp, row->name);
    sp_report_name(rp, row->name);
    if (row->recursive) sp_textbuf_append(b, " \xE2\x86\xBB");
    sp_textbuf_append(b, "</td>");
    number_cell(rp, (unsigned long long)row->calls);
    sp_report_seconds_cell(rp, row->has_timing ? row->total : NAN);
    sp_report_seconds_cell(rp, row->has_exclusive ? own_time(row) : NAN);
    sp_report_seconds_cell(rp, row->has_timing ? row->avg : NAN);
    sp_report_seconds_cell(rp, row->has_percentiles ? row->p95 : NAN);
    sp_report_seconds_cell(rp, row->has_timing ? row->max : NAN);
    share_cell(rp, row->has_timing ? row->coverage : NAN); /* wall clock, as inspect */
    if (row->has_imbalance)
        sp_textbuf_printf(b, "<td data-v=\"%.6g\">%.1f%%</td>", row->imbalance, row->imbalance);
    else
        sp_textbuf_append(b, "<td data-v=\"\">-</td>");
    sp_textbuf_append(b, "</tr>\n");
}

/* Row i is kept when it is among the MAX_TREE_ROWS paths with the most total
 * time, or an ancestor of one (the tree stays connected). */
static int by_total_desc(const void *a, const void *b, void *rows) {
    const sp_table_row *t = rows;
    double x = t[*(const size_t *)a].has_timing ? t[*(const size_t *)a].total : 0;
    double y = t[*(const size_t *)b].has_timing ? t[*(const size_t *)b].total : 0;
    if (x != y) return x < y ? 1 : -1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static unsigned char *kept_rows(const sp_table_rows *t, size_t *parent_of) {
    unsigned char *keep = calloc(t->count ? t->count : 1, 1);
    size_t *order = malloc((t->count ? t->count : 1) * sizeof *order);
    if (!keep || !order) {
        free(keep);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < t->count; i++)
        order[i] = i;
    qsort_r(order, t->count, sizeof *order, by_total_desc, t->rows);
    size_t kept = 0;
    for (size_t k = 0; k < t->count && kept < MAX_TREE_ROWS; k++)
        for (size_t i = order[k]; i != (size_t)-1 && !keep[i]; i = parent_of[i]) {
            keep[i] = 1;
            kept++;
        }
    free(order);
    return keep;
}

sp_status sp_report_tree(sp_report *rp, sp_error *err) {
    const sp_table_rows *t = rp->rows;
    size_t *stack = malloc((t->count + 1) * sizeof *stack);
    size_t *parent_of = malloc((t->count + 1) * sizeof *parent_of);
    unsigned char *keep = NULL;
    if (stack && parent_of) {
        for (size_t i = 0; i < t->count; i++) {
            size_t d = (size_t)t->rows[i].depth;
            stack[d] = i;
            parent_of[i] = d ? stack[d - 1] : (size_t)-1;
        }
        keep = kept_rows(t, parent_of);
    }
    if (!keep) {
        free(stack);
        free(parent_of);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    sp_textbuf_append(rp->b,
                      "<section id=\"regions\"><h2>Regions</h2>\n<p class=\"note\">Nested as "
                      "called; (own) rows are a parent's time outside its children. Click a "
                      "column to sort (subtrees stay together), \xE2\x96\xBE to fold a "
                      "subtree.</p>\n<div class=\"scroll\"><table id=\"tree\" class=\"sortable\">"
                      "<thead><tr><th class=\"name\">region</th><th>calls</th><th>total</th><th>own</th>"
                      "<th>avg</th><th>p95</th><th>max</th><th>share of session</th>"
                      "<th>imbalance</th></tr></thead><tbody>\n");
    size_t folded = 0;
    double folded_time = 0;
    for (size_t i = 0; i < t->count; i++) {
        const sp_table_row *row = &t->rows[i];
        if (!keep[i]) {
            folded++;
            /* a folded subtree's time is its top row's (nested rows are inside it) */
            if (parent_of[i] == (size_t)-1 || keep[parent_of[i]])
                folded_time += row->has_timing ? row->total : 0;
            continue;
        }
        tree_row(rp, row, i, parent_of[i] == (size_t)-1 ? -1 : (long)parent_of[i], 0);
        if (row->has_children && row->has_exclusive) tree_row(rp, row, i, -1, 1);
    }
    sp_textbuf_append(rp->b, "</tbody></table></div>\n");
    if (folded) {
        double pct = rp->session > 0 ? folded_time / rp->session * 100 : 0;
        sp_textbuf_printf(rp->b,
                          "<p class=\"note\" id=\"folded-paths\">%zu more paths (%.1f %% of "
                          "the session) are not listed: the %d paths with the most time are. "
                          "<code>scope-profiler inspect</code> or <code>stats --by path</code> "
                          "list them all.</p>\n",
                          folded, pct, MAX_TREE_ROWS);
    }
    free(keep);
    free(parent_of);
    double percentile_error = 0.0; /* aggregate files: p95 from duration histograms */
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].has_percentiles && t->rows[i].percentile_error > percentile_error)
            percentile_error = t->rows[i].percentile_error;
    if (percentile_error > 0.0)
        sp_textbuf_printf(rp->b,
                          "<p class=\"note\" id=\"percentile-error\">p95 comes from duration "
                          "histograms: within \xc2\xb1%.2g %% of the exact value.</p>\n",
                          100.0 * percentile_error);
    if (t->count == 0) sp_textbuf_append(rp->b, "<p class=\"note\">No regions recorded.</p>\n");
    sp_textbuf_append(rp->b, "</section>\n");
    free(stack);
    return SP_OK;
}

/* --- load balance ------------------------------------------------------------ */

typedef struct balance {
    const sp_mpi_region *mr;
    double mean, min, max, excess;
    uint32_t slowest;
} balance;

static int by_excess_desc(const void *a, const void *b) {
    double x = ((const balance *)a)->excess, y = ((const balance *)b)->excess;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Own time per selected rank (0 where the region has no calls). */
static int region_balance(const sp_report *rp, const sp_mpi_region *mr, const uint32_t *ranks,
                          size_t nr, balance *out) {
    *out = (balance){mr, 0, INFINITY, -1, 0, 0};
    double sum = 0, most = 0;
    for (size_t i = 0; i < nr; i++) {
        const sp_rank_region *rr = sp_mpi_region_rank(mr, ranks[i], NULL);
        double own = 0, working = 0;
        if (rr) {
            sp_error e;
            own = sp_rank_region_exclusive_duration(rr, &e);
            if (!isfinite(own)) return 0;
            /* with the wait states: the rank with the most own time outside MPI waits */
            int64_t waited =
                sp_results_excluded_ns(rp->r, ranks[i], sp_mpi_region_name(mr), SP_EXCLUDED_OWN);
            working = own - (double)waited / 1e9;
        }
        sum += own;
        if (own < out->min) out->min = own;
        if (own > out->max) out->max = own;
        if (i == 0 || working > most) {
            most = working;
            out->slowest = ranks[i];
        }
    }
    out->mean = sum / (double)nr;
    out->excess = out->max - out->mean;
    return 1;
}

static sp_status balance_rows(sp_report *rp, const uint32_t *ranks, size_t nr, sp_error *err) {
    size_t ng = 0;
    const sp_mpi_region **regions = sp_results_get_regions(rp->r, &rp->o->filter, &ng, err);
    if (!regions) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    balance *rows = malloc((ng ? ng : 1) * sizeof *rows);
    if (!rows) {
        sp_region_list_free(regions);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    size_t n = 0;
    int missing = 0;
    for (size_t i = 0; i < ng; i++) {
        if (region_balance(rp, regions[i], ranks, nr, &rows[n]))
            n++;
        else
            missing = 1;
    }
    qsort(rows, n, sizeof *rows, by_excess_desc);
    sp_textbuf_printf(rp->b,
                      "<div class=\"scroll\"><table class=\"sortable\" "
                      "id=\"balance\"><thead><tr><th class=\"name\">"
                      "region</th><th>mean</th><th>min</th><th>max</th><th>slowest rank%s</th>"
                      "<th>excess</th></tr></thead><tbody>\n",
                      sp_results_excluded_state(rp->r) > 0 ? " (time outside MPI waits)"
                      : sp_results_excluded_state(rp->r) < 0
                          ? " (MPI waits unknown: no peer records)"
                          : "");
    for (size_t i = 0; i < n && i < MAX_BALANCE; i++) {
        const char *name = sp_mpi_region_name(rows[i].mr);
        sp_textbuf_append(rp->b, "<tr data-name=\"");
        sp_report_text(rp, name);
        sp_textbuf_append(rp->b, "\"><td class=\"name\">");
        swatch(rp, name);
        sp_report_name(rp, name);
        sp_textbuf_append(rp->b, "</td>");
        sp_report_seconds_cell(rp, rows[i].mean);
        sp_report_seconds_cell(rp, rows[i].min);
        sp_report_seconds_cell(rp, rows[i].max);
        sp_textbuf_printf(rp->b, "<td data-v=\"%u\">%u</td>", rows[i].slowest, rows[i].slowest);
        sp_report_seconds_cell(rp, rows[i].excess);
        sp_textbuf_append(rp->b, "</tr>\n");
    }
    sp_textbuf_append(rp->b, "</tbody></table></div>\n");
    if (n > MAX_BALANCE)
        sp_textbuf_printf(rp->b, "<p class=\"note\">%zu more regions with less excess.</p>\n",
                          n - MAX_BALANCE);
    if (missing)
        sp_textbuf_append(rp->b, "<p class=\"note\">Regions without per-rank own times (the "
                                 "file holds neither calls nor stored exclusive totals) are "
                                 "left out.</p>\n");
    free(rows);
    sp_region_list_free(regions);
    return SP_OK;
}

sp_status sp_report_balance(sp_report *rp, sp_error *err) {
    const sp_filter *f = &rp->o->filter;
    size_t n = sp_results_num_data_ranks(rp->r), nr = 0;
    uint32_t *ranks = malloc((n ? n : 1) * sizeof *ranks);
    if (!ranks) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < n; i++) {
        uint32_t rank = sp_results_rank(rp->r, i);
        int keep = f->num_ranks == 0;
        for (size_t k = 0; !keep && k < f->num_ranks; k++)
            keep = f->ranks[k] == rank;
        if (keep) ranks[nr++] = rank;
    }
    sp_textbuf_append(rp->b, "<section id=\"balance-section\"><h2>Load balance</h2>\n");
    sp_status st = SP_OK;
    if (nr < 2) {
        sp_textbuf_append(rp->b, sp_results_num_threads(rp->r) > n
                                     ? "<p class=\"note\">One rank: its threads are compared in "
                                       "<a href=\"#threads\">Thread balance</a>.</p>\n"
                                     : "<p class=\"note\">One rank and one thread: nothing to "
                                       "balance.</p>\n");
    } else {
        sp_textbuf_printf(rp->b,
                          "<p class=\"note\">Own time of each region on each of the %zu ranks "
                          "(0 on a rank without calls); excess = slowest &minus; mean, the time "
                          "the other ranks wait. Largest excess first.</p>\n",
                          nr);
        st = balance_rows(rp, ranks, nr, err);
    }
    sp_textbuf_append(rp->b, "</section>\n");
    free(ranks);
    return st;
}

/* --- thread balance ------------------------------------------------------------ */

static double thread_excess(const sp_table_row *row) {
    return row->thread_balance.max - row->thread_balance.mean;
}

static int by_thread_excess_desc(const void *a, const void *b) {
    double x = thread_excess(*(const sp_table_row *const *)a);
    double y = thread_excess(*(const sp_table_row *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

static void thread_row(sp_report *rp, const sp_table_row *row) {
    const sp_balance *b = &row->thread_balance;
    char slow[200], fast[200];
    sp_lane_name(rp->r, b->slowest_rank, b->slowest_thread, slow, sizeof slow);
    sp_lane_name(rp->r, b->fastest_rank, b->fastest_thread, fast, sizeof fast);
    sp_textbuf_append(rp->b, "<tr data-name=\"");
    sp_report_text(rp, row->name);
    sp_textbuf_append(rp->b, "\"><td class=\"name\">");
    swatch(rp, row->name);
    sp_report_name(rp, sp_report_path(row));
    sp_textbuf_printf(rp->b, "</td><td data-v=\"%zu\">%zu</td>", b->count, b->count);
    sp_report_seconds_cell(rp, b->mean);
    sp_report_seconds_cell(rp, b->min);
    sp_report_seconds_cell(rp, b->max);
    sp_textbuf_append(rp->b, "<td class=\"name\">");
    sp_report_text(rp, slow);
    sp_textbuf_append(rp->b, "</td><td class=\"name\">");
    sp_report_text(rp, fast);
    sp_textbuf_append(rp->b, "</td>");
    sp_report_seconds_cell(rp, thread_excess(row));
    sp_textbuf_printf(rp->b, "<td data-v=\"%.6g\">%.1f%%</td></tr>\n", b->imbalance * 100,
                      b->imbalance * 100);
}

sp_status sp_report_threads(sp_report *rp, sp_error *err) {
    const sp_table_rows *t = rp->rows;
    if (sp_results_num_threads(rp->r) <= sp_results_num_data_ranks(rp->r)) return SP_OK;
    const sp_table_row **list = malloc((t->count ? t->count : 1) * sizeof *list);
    if (!list) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].has_balance && t->rows[i].thread_balance.count >= 2 &&
            !sp_report_is_session_row(&t->rows[i]))
            list[n++] = &t->rows[i];
    qsort(list, n, sizeof *list, by_thread_excess_desc);
    sp_textbuf_append(rp->b, "<section id=\"threads\"><h2>Thread balance</h2>\n");
    if (n == 0) {
        sp_textbuf_append(rp->b, "<p class=\"note\">No call path ran on more than one thread "
                                 "(or the file holds no per-call events).</p>\n");
    } else {
        sp_textbuf_append(rp->b,
                          "<p class=\"note\">Call paths run on several threads: each thread's "
                          "time in the path, its slowest and fastest thread, and the excess "
                          "(slowest &minus; mean, what the other threads wait at the next "
                          "barrier). Largest excess first.</p>\n<div class=\"scroll\"><table "
                          "class=\"sortable\" id=\"thread-balance\"><thead><tr><th "
                          "class=\"name\">call path</th><th>threads</th><th>mean</th><th>min</th>"
                          "<th>max</th><th class=\"name\">slowest thread</th><th "
                          "class=\"name\">fastest thread</th><th>excess</th><th>imbalance</th>"
                          "</tr></thead><tbody>\n");
        for (size_t i = 0; i < n && i < MAX_BALANCE; i++)
            thread_row(rp, list[i]);
        sp_textbuf_append(rp->b, "</tbody></table></div>\n");
        if (n > MAX_BALANCE)
            sp_textbuf_printf(rp->b, "<p class=\"note\">%zu more call paths with less excess.</p>\n",
                              n - MAX_BALANCE);
    }
    sp_textbuf_append(rp->b, "</section>\n");
    free(list);
    return SP_OK;
}
