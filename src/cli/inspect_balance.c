/* inspect: the "Load balance" section of multi-rank files, the "MPI calls"
 * section (the PMPI wrappers' regions and bytes) and --balance (the balance
 * JSON). Figures per docs/parallel.md. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_text.h"
#include "cli/cli_wrap.h"
#include "cli/cli_colour.h"
#include "cli/cli_error.h"
#include "cli/inspect.h"
#include "common/parallel_for.h"
#include "scope_profiler/balance.h"
#include "waits/waits.h"

enum { MAX_LINES = 10 };

typedef struct balance_line {
    const sp_mpi_region *region;
    sp_balance ranks;
    sp_balance outside; /* of the time outside MPI waits, when known and some rank waits
                           inside the region (count 0 otherwise) */
    sp_step_balance steps;
    double lost; /* max - mean: what the imbalance costs the slowest rank */
    int kept;    /* the region differs between the ranks: it gets a line */
} balance_line;

/* A region's line: its balance over the ranks (and the ranks of --ranks),
 * step by step, and outside MPI waits. */
static void fill_line(balance_line *l, const sp_filter *f) {
    l->kept = 0;
    if (sp_region_balance_over(l->region, f->ranks, f->num_ranks, &l->ranks, NULL, &l->steps,
                               NULL) != SP_OK) {
        memset(&l->steps, 0, sizeof l->steps); /* out of memory: the line without its steps */
        if (sp_region_balance_over(l->region, f->ranks, f->num_ranks, &l->ranks, NULL, NULL,
                                   NULL) != SP_OK)
            return;
    }
    if (l->ranks.count < 2 || !(l->ranks.imbalance > 0.0)) return;
    /* kept only where some rank waits inside the region: else it is the whole time */
    if (sp_region_outside_balance(l->region, f->ranks, f->num_ranks, &l->outside) != SP_OK ||
        (l->outside.count == l->ranks.count && l->outside.mean == l->ranks.mean))
        memset(&l->outside, 0, sizeof l->outside);
    l->lost = l->ranks.max - l->ranks.mean;
    l->kept = 1;
}

typedef struct lines_job {
    balance_line *lines;
    const sp_filter *filter;
} lines_job;

/* The regions' lines are independent (each reads the results and caches
 * only in its own region): on 16,384 ranks they are computed in parallel. */
static void fill_lines(void *ctx, size_t first, size_t count) {
    lines_job *j = ctx;
    for (size_t i = first; i < first + count; i++)
        fill_line(&j->lines[i], j->filter);
}

static int by_lost(const void *a, const void *b) {
    double x = ((const balance_line *)a)->lost, y = ((const balance_line *)b)->lost;
    return (x < y) - (x > y);
}

/* When the slowest rank spends most of its time in the region waiting on
 * other ranks (wait states, issue 25): for whom, doing what. */
static void print_waiting(FILE *out, const balance_line *l, const sp_waits *w,
                          const inspect_options *o) {
    sp_wait_cause c;
    const char *name = sp_mpi_region_name(l->region);
    double waited = (double)sp_waits_in_region(w, l->ranks.slowest_rank, name, &c) / 1e9;
    if (!c.late_path || !(l->ranks.max > 0) || waited < 0.5 * l->ranks.max) return;
    const char *late = strrchr(c.late_path, '>');
    late = late ? late + 2 : c.late_path;
    char text[512];
    snprintf(text, sizeof text, "    rank %u is waiting %.1f%% of it: waits for rank %u (%s)",
             l->ranks.slowest_rank, 100.0 * (waited < l->ranks.max ? waited / l->ranks.max : 1.0),
             c.late_rank, cli_shown(late[0] ? late : "outside any region"));
    cli_print_clauses(out, text, o->fit_to, 2);
}

static void print_line(FILE *out, const balance_line *l, const sp_waits *w,
                       const inspect_options *o) {
    char text[512];
    fprintf(out, "  %s\n", cli_shown(sp_mpi_region_name(l->region)));
    int n = snprintf(text, sizeof text, "    imbalance %.2f%%, load balance %.2f%%, ",
                     100.0 * l->ranks.imbalance, 100.0 * l->ranks.load_balance);
    if (n > 0 && (size_t)n < sizeof text && l->outside.count) {
        char outside[32]; /* with the wait states: who works longest, who least */
        inspect_duration(outside, sizeof outside, l->outside.max, o);
        snprintf(text + n, sizeof text - (size_t)n,
                 "slowest rank %u outside MPI waits (%s%s), fastest %u", l->outside.slowest_rank,
                 outside, o->seconds ? " s" : "", l->outside.fastest_rank);
    } else if (n > 0 && (size_t)n < sizeof text) {
        snprintf(text + n, sizeof text - (size_t)n, "slowest rank %u, fastest %u",
                 l->ranks.slowest_rank, l->ranks.fastest_rank);
    }
    cli_print_clauses(out, text, o->fit_to, 2);
    if (w) print_waiting(out, l, w, o);
    const sp_step_balance *s = &l->steps;
    if (s->kind == SP_IMBALANCE_STATIC || s->kind == SP_IMBALANCE_DYNAMIC) {
        char gain[32];
        inspect_duration(gain, sizeof gain, s->saved, o);
        /* steps compare whole calls: say so where that names another rank */
        int waits_in = l->outside.count && s->straggler != l->outside.slowest_rank;
        snprintf(text, sizeof text,
                 "    %s: rank %u slowest in %llu of %llu steps (%.0f%%), %s%s to gain%s",
                 sp_imbalance_kind_name(s->kind), s->straggler,
                 (unsigned long long)s->straggler_steps, (unsigned long long)s->steps,
                 100.0 * s->straggler_share, gain, o->seconds ? " s" : "",
                 waits_in ? ", MPI waits included" : "");
        cli_print_clauses(out, text, o->fit_to, 2);
    } else if (s->kind == SP_IMBALANCE_BALANCED) {
        snprintf(text, sizeof text, "    balanced step by step (%llu steps)",
                 (unsigned long long)s->steps);
        cli_print_clauses(out, text, o->fit_to, 2);
    }
}

void inspect_print_balance(FILE *out, const sp_results *r, const inspect_options *o) {
    if (sp_results_num_ranks(r) < 2) {
        if (o->balance_only) {
            cli_print_wrapped(out, "  (one rank: no load balance to show)", o->fit_to, 1);
            fputc('\n', out);
        }
        return;
    }
    size_t n = 0;
    const sp_mpi_region **regions = sp_results_get_regions(r, &o->filter, &n, NULL);
    if (!regions) return;
    balance_line *lines = calloc(n ? n : 1, sizeof *lines);
    size_t count = 0;
    if (lines) {
        for (size_t i = 0; i < n; i++)
            lines[i].region = regions[i];
        lines_job job = {lines, &o->filter}; /* --ranks: the balance of those ranks */
        sp_parallel_for(n, 1, fill_lines, &job);
        for (size_t i = 0; i < n; i++) /* the kept lines, in region order */
            if (lines[i].kept) lines[count++] = lines[i];
    }
    if (count) {
        qsort(lines, count, sizeof *lines, by_lost);
        cli_print_title_fit(out, o->colour, o->fit_to,
                            "Load balance (%zu ranks; largest loss first)",
                            o->filter.num_ranks ? o->filter.num_ranks : sp_results_num_ranks(r));
        size_t limit = o->top && o->top < MAX_LINES ? o->top : MAX_LINES; /* --top applies */
        const sp_waits *w = inspect_waits_for(sp_results_path(r));
        if (sp_results_excluded_state(r) < 0)
            cli_print_wrapped(out,
                              "  (slowest rank: its whole time, MPI waits included: the file "
                              "has no peer records to tell them apart)",
                              o->fit_to, 3);
        for (size_t i = 0; i < count && i < limit; i++)
            print_line(out, &lines[i], w, o);
        if (count > limit) {
            char more[128];
            snprintf(more, sizeof more,
                     "  ... %zu more (scope-profiler inspect --balance --format json)",
                     count - limit);
            cli_print_wrapped(out, more, o->fit_to, 4);
        }
        fputc('\n', out);
    } else if (o->balance_only) {
        cli_print_wrapped(out, "  (no region differs between the ranks)", o->fit_to, 1);
        fputc('\n', out);
    }
    free(lines);
    sp_region_list_free(regions);
}

typedef struct mpi_call_line {
    const sp_mpi_region *region;
    uint64_t calls;
    double total;
    int64_t bytes; /* -1: no selected rank has a count */
} mpi_call_line;

/* Largest time first, ties by name (qsort is not stable). */
static int by_total(const void *a, const void *b) {
    const mpi_call_line *p = a, *q = b;
    if (p->total != q->total) return (p->total < q->total) - (p->total > q->total);
    return strcmp(sp_mpi_region_name(p->region), sp_mpi_region_name(q->region));
}

static int rank_selected(const sp_filter *f, uint32_t rank) {
    for (size_t i = 0; i < f->num_ranks; i++)
        if (f->ranks[i] == rank) return 1;
    return f->num_ranks == 0;
}

/* The region's calls, time and bytes over the ranks --ranks selects. */
static void sum_selected(mpi_call_line *l, const sp_filter *f) {
    l->bytes = -1;
    for (size_t i = 0; i < sp_mpi_region_num_ranks(l->region); i++) {
        uint32_t rank = sp_mpi_region_rank_id(l->region, i);
        const sp_rank_region *rr = sp_mpi_region_rank(l->region, rank, NULL);
        if (!rr || !rank_selected(f, rank)) continue;
        l->calls += sp_rank_region_num_calls(rr);
        l->total += sp_rank_region_total_duration(rr);
        int64_t b = sp_rank_region_message_bytes(rr);
        if (b >= 0) l->bytes = (l->bytes < 0 ? 0 : l->bytes) + b;
    }
}

/* Bytes with a binary unit, exact below 1 KiB. */
static void format_bytes(char *buf, size_t size, int64_t bytes) {
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        snprintf(buf, size, "%lld B", (long long)bytes);
        return;
    }
    double v = (double)bytes / 1024.0;
    int u = 0;
    while (v >= 1024.0 && u < 3) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, size, "%.1f %s", v, units[u]);
}

/* One aligned line per call; where that does not fit the width, the name on
 * its own line and the figures below it as clauses. */
static void print_call_line(FILE *out, const mpi_call_line *l, const inspect_options *o) {
    char time[32], bytes[32], per_call[48] = "", line[512];
    inspect_duration(time, sizeof time, l->total, o);
    format_bytes(bytes, sizeof bytes, l->bytes);
    if (l->bytes > 0 && l->calls) {
        char each[32];
        format_bytes(each, sizeof each, l->bytes / (int64_t)l->calls);
        snprintf(per_call, sizeof per_call, " (%s per call)", each);
    }
    const char *name = sp_mpi_region_name(l->region), *unit = o->seconds ? " s" : "";
    int n = snprintf(line, sizeof line, "  %-14s %8llu calls  %12s%s  %s%s", name,
                     (unsigned long long)l->calls, time, unit, bytes, per_call);
    if (!o->fit_to || (n > 0 && cli_utf8_length(line) <= o->fit_to)) {
        fprintf(out, "%s\n", line);
        return;
    }
    fprintf(out, "  %s\n", name);
    snprintf(line, sizeof line, "    %llu calls, %s%s, %s%s", (unsigned long long)l->calls, time,
             unit, bytes, per_call);
    cli_print_clauses(out, line, o->fit_to, 2);
}

void inspect_print_mpi_calls(FILE *out, const sp_results *r, const inspect_options *o) {
    size_t n = 0;
    const sp_mpi_region **regions = sp_results_get_regions(r, &o->filter, &n, NULL);
    if (!regions) return;
    mpi_call_line *lines = calloc(n ? n : 1, sizeof *lines);
    size_t count = 0;
    for (size_t i = 0; lines && i < n; i++) {
        if (sp_mpi_region_message_bytes(regions[i]) < 0) continue;
        lines[count].region = regions[i];
        sum_selected(&lines[count], &o->filter);
        if (lines[count].bytes >= 0) count++;
    }
    if (count) {
        qsort(lines, count, sizeof *lines, by_total);
        cli_print_title_fit(out, o->colour, o->fit_to,
                            "MPI calls (%zu ranks; time summed over ranks)",
                            o->filter.num_ranks ? o->filter.num_ranks : sp_results_num_ranks(r));
        for (size_t i = 0; i < count; i++)
            print_call_line(out, &lines[i], o);
        fputc('\n', out);
    } else if (o->mpi_calls_only) {
        cli_print_wrapped(
            out, "  (no MPI calls recorded: the MPI wrappers record them, docs/parallel.md)",
            o->fit_to, 1);
        fputc('\n', out);
    }
    free(lines);
    sp_region_list_free(regions);
}

int inspect_print_balance_json(FILE *out, const sp_results *r, const inspect_options *o) {
    sp_error err = {0};
    if (sp_write_balance_json(r, out, &o->filter, &err) == SP_OK) return 0;
    cli_error_sp(&err);
    return CLI_EXIT_USAGE;
}
