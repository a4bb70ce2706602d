#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/duration_text.h"
#include "common/terminal_text.h"
#include "present/table.h"

void sp_format_count(sp_textbuf *out, uint64_t v) {
    if (v >= 1000000000u)
        sp_textbuf_printf(out, "%.3gB", (double)v / 1e9);
    else if (v >= 1000000u)
        sp_textbuf_printf(out, "%.3gM", (double)v / 1e6);
    else if (v >= 1000u)
        sp_textbuf_printf(out, "%.3gk", (double)v / 1e3);
    else
        sp_textbuf_printf(out, "%" PRIu64, v);
}

void sp_format_count_exact(sp_textbuf *out, uint64_t v) {
    if (v >= 10000000u)
        sp_format_count(out, v);
    else
        sp_textbuf_printf(out, "%" PRIu64, v);
}

static void count(sp_textbuf *out, uint64_t v, const sp_cell_context *ctx) {
    if (ctx->readable)
        sp_format_count_exact(out, v);
    else
        sp_format_count(out, v);
}

void sp_format_pct(sp_textbuf *out, int has_v, double v, int has_den, double den) {
    if (!has_v || isnan(v) || !has_den || isnan(den) || den <= 0)
        sp_textbuf_append(out, "-");
    else
        sp_textbuf_printf(out, "%.2f%%", 100.0 * v / den);
}

void sp_format_tree_prefix(sp_textbuf *out, int depth, int ascii) {
    if (depth <= 0) return;
    sp_textbuf_repeat(out, ascii ? "| " : "\xe2\x94\x82 ", (size_t)(depth - 1));
    sp_textbuf_append(out, ascii ? "\\- " : "\xe2\x94\x94\xe2\x94\x80 ");
}

static void indent(sp_textbuf *out, int depth) {
    if (depth > 0) sp_textbuf_repeat(out, " ", (size_t)(3 + 2 * (depth - 1)));
}

/* A value or "-" when unknown (None in Python); a value that rounds to zero
 * prints without a sign ("0.00", never "-0.00"). */
static void value(sp_textbuf *out, int known, double v, const char *fmt) {
    if (!known || isnan(v)) {
        sp_textbuf_append(out, "-");
        return;
    }
    char text[64];
    snprintf(text, sizeof text, fmt, v);
    int zero = text[0] == '-' && !strpbrk(text, "123456789");
    sp_textbuf_append(out, zero ? text + 1 : text);
}

/* A duration: with its unit when readable, else in fmt's seconds. */
static void duration(sp_textbuf *out, int known, double v, const char *fmt,
                     const sp_cell_context *ctx) {
    if (!ctx->readable || !known || isnan(v)) {
        value(out, known, v, fmt);
        return;
    }
    char text[32];
    sp_format_duration(v, ctx->ascii, text, sizeof text);
    sp_textbuf_append(out, text);
}

static void region_cell(sp_textbuf *out, const sp_table_row *r, const sp_cell_context *ctx) {
    sp_format_tree_prefix(out, r->depth, ctx->ascii);
    sp_terminal_append(out, r->name);
    if (r->recursive) sp_textbuf_append(out, ctx->ascii ? " (r)" : " \xe2\x86\xbb");
    if (ctx->inline_count && r->calls != 1) {
        sp_textbuf_append(out, " (");
        count(out, r->calls, ctx);
        sp_textbuf_append(out, "x");
        if (r->has_balance && r->threads > 1)
            sp_textbuf_printf(out, " on %" PRIu64 " threads", r->threads);
        sp_textbuf_append(out, ")");
    }
}

/* The parallel columns (docs/parallel.md): "-" without two members to compare. */
static void balance_cell(sp_textbuf *out, const sp_table_row *r, sp_table_column c) {
    const sp_balance *ranks = &r->rank_balance, *threads = &r->thread_balance;
    int has_ranks = r->has_balance && ranks->count >= 2;
    int has_threads = r->has_balance && threads->count >= 2;
    int ranks_differ = has_ranks && ranks->imbalance > 0.0; /* else nobody is slowest */
    int threads_differ = has_threads && threads->imbalance > 0.0;
    switch (c) {
    case SP_COL_SLOWEST:
        if (r->has_outside) { /* with the wait states: the most time outside MPI waits */
            ranks = &r->outside_balance;
            ranks_differ = has_ranks && ranks->count >= 2 && ranks->imbalance > 0.0;
        }
        if (ranks_differ)
            sp_textbuf_printf(out, "%" PRIu32, ranks->slowest_rank);
        else
            sp_textbuf_append(out, "-");
        break;
    case SP_COL_LOAD_BALANCE:
        value(out, has_ranks, 100.0 * ranks->load_balance, "%.2f");
        break;
    case SP_COL_THREADS:
        if (r->has_balance && r->threads)
            sp_textbuf_printf(out, "%" PRIu64, r->threads);
        else
            sp_textbuf_append(out, "-");
        break;
    case SP_COL_THREAD_IMBALANCE:
        value(out, has_threads, 100.0 * threads->imbalance, "%.2f");
        break;
    default: /* SP_COL_SLOWEST_THREAD: "thread" on one rank, "rank:thread" on several */
        if (!threads_differ)
            sp_textbuf_append(out, "-");
        else if (r->num_ranks > 1)
            sp_textbuf_printf(out, "%" PRIu32 ":%" PRId64, threads->slowest_rank,
                              threads->slowest_thread);
        else
            sp_textbuf_printf(out, "%" PRId64, threads->slowest_thread);
        break;
    }
}

static void percent_cell(sp_textbuf *out, const sp_table_row *r, const sp_cell_context *ctx) {
    int has = 0;
    double v = 0;
    if (ctx->exclusive_mode) { /* every row its own share, the session root too (issue 28) */
        has = r->has_exclusive, v = sp_table_row_own_coverage(r);
    } else {
        has = r->calls > 0, v = r->coverage; /* no calls: coverage is None */
    }
    sp_format_pct(out, has, v, ctx->rows->has_session_total, ctx->rows->session_total);
}

void sp_table_cell(sp_textbuf *out, const sp_table_row *r, sp_table_column c,
                   const sp_cell_context *ctx) {
    switch (c) {
    case SP_COL_REGION:
        region_cell(out, r, ctx);
        break;
    case SP_COL_RANKS:
        sp_textbuf_printf(out, "%" PRIu64, r->num_ranks);
        break;
    case SP_COL_CALLS:
        count(out, r->calls, ctx);
        break;
    case SP_COL_TOTAL:
        indent(out, r->depth);
        duration(out, r->has_timing, r->total, "%.6f", ctx);
        break;
    case SP_COL_PERCENT:
        indent(out, r->depth);
        percent_cell(out, r, ctx);
        break;
    case SP_COL_PARENT_PERCENT:
        indent(out, r->depth);
        sp_format_pct(out, r->calls > 0, r->coverage, r->has_parent_coverage, r->parent_coverage);
        break;
    case SP_COL_AVG:
        indent(out, r->depth);
        duration(out, r->has_timing, r->avg, "%.3e", ctx);
        break;
    case SP_COL_MIN:
        duration(out, r->has_timing, r->min, "%.3f", ctx);
        break;
    case SP_COL_MAX:
        duration(out, r->has_timing, r->max, "%.3f", ctx);
        break;
    case SP_COL_FIRST:
        duration(out, r->has_first_last, r->first, "%.3f", ctx);
        break;
    case SP_COL_LAST:
        duration(out, r->has_first_last, r->last, "%.3f", ctx);
        break;
    case SP_COL_STD:
        duration(out, r->has_timing, r->std, "%.3f", ctx);
        break;
    case SP_COL_P50:
        duration(out, r->has_timing && r->has_percentiles, r->p50, "%.3f", ctx);
        break;
    case SP_COL_P95:
        duration(out, r->has_timing && r->has_percentiles, r->p95, "%.3f", ctx);
        break;
    case SP_COL_P99:
        duration(out, r->has_timing && r->has_percentiles, r->p99, "%.3f", ctx);
        break;
    case SP_COL_IMBALANCE:
        value(out, r->has_imbalance, r->imbalance, "%.2f");
        break;
    case SP_COL_SLOWEST:
    case SP_COL_LOAD_BALANCE:
    case SP_COL_THREADS:
    case SP_COL_THREAD_IMBALANCE:
    case SP_COL_SLOWEST_THREAD:
        balance_cell(out, r, c);
        break;
    case SP_COL_COUNT_:
        break;
    }
}

void sp_table_own_cell(sp_textbuf *out, const sp_table_row *r, sp_table_column c,
                       const sp_cell_context *ctx) {
    int d = r->depth + 1;
    switch (c) {
    case SP_COL_REGION:
        sp_format_tree_prefix(out, d, ctx->ascii);
        sp_textbuf_append(out, "(own)");
        break;
    case SP_COL_TOTAL:
        indent(out, d);
        duration(out, r->has_exclusive, r->exclusive, "%.6f", ctx);
        break;
    case SP_COL_AVG:
        indent(out, d);
        duration(out, r->has_exclusive && r->calls > 0,
                 r->calls > 0 ? r->exclusive / (double)r->calls : 0.0, "%.3e", ctx);
        break;
    case SP_COL_PERCENT:
        indent(out, d);
        sp_format_pct(out, r->has_exclusive, sp_table_row_own_coverage(r),
                      ctx->rows->has_session_total, ctx->rows->session_total);
        break;
    case SP_COL_PARENT_PERCENT:
        indent(out, d);
        sp_format_pct(out, r->has_exclusive, sp_table_row_own_coverage(r), r->calls > 0,
                      r->coverage);
        break;
    default:
        break;
    }
}
