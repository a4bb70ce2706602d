/*
 * scope-profiler waits FILE [--format text|json] [--eager-bytes N] [--top N]:
 * who waited for whom in an MPI profile (Late Sender, Late Receiver, waits
 * at collectives) and the POP efficiencies (docs/parallel.md §6).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clock_alignment.h"
#include "cli/cli.h"
#include "cli/cli_args.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "common/json_escape.h"
#include "common/text_buffer.h"
#include "format/reader.h"
#include "waits/waits.h"

enum { OPT_FORMAT = 1, OPT_EAGER, OPT_TOP };

static const cli_option OPTIONS[] = {
    {"format", 0, CLI_VALUE, OPT_FORMAT},
    {"eager-bytes", 0, CLI_VALUE, OPT_EAGER},
    {"top", 0, CLI_VALUE, OPT_TOP},
};

/* Open MPI's TCP eager limit (btl_tcp_eager_limit); docs/parallel.md §6.1. */
#define DEFAULT_EAGER_BYTES 65536

typedef struct waits_options {
    int json;
    int64_t eager_bytes;
    long top;
} waits_options;

static int whole_number(const char *value, long long max, long long *out) {
    char *end = NULL;
    long long v = strtoll(value, &end, 10);
    if (!*value || *end || v < 0 || v > max) return 0;
    *out = v;
    return 1;
}

static int on_option(void *ctx, int id, const char *value) {
    waits_options *o = ctx;
    long long v = 0;
    switch (id) {
    case OPT_FORMAT: {
        static const char *const formats[] = {"text", "json"};
        int i = cli_choice_index(value, formats, sizeof formats / sizeof *formats);
        if (i < 0)
            return cli_choice_error("waits", "--format", value, formats,
                                    sizeof formats / sizeof *formats);
        o->json = i == 1;
        return 0;
    }
    case OPT_EAGER:
        if (!whole_number(value, INT64_MAX, &v))
            return cli_value_error(
                "waits", "--eager-bytes needs a whole number of bytes >= 0, not \"%s\"", value);
        o->eager_bytes = v;
        return 0;
    default:
        if (!whole_number(value, 1000000000, &v))
            return cli_value_error("waits", "--top needs a whole number >= 0, not \"%s\"", value);
        o->top = (long)v;
        return 0;
    }
}

static const char *kind_title(sp_wait_kind k) {
    static const char *const titles[SP_WAIT_KINDS] = {
        "Late Sender", "Late Receiver", "Wait at collective", "Late Broadcast", "Early Reduce"};
    return titles[k];
}

static double ms(int64_t ns) {
    return (double)ns / 1e6;
}

static void print_missing(const sp_waits *w) {
    if (!w->peer_data)
        printf("No MPI peer data in this file (recorded without the PMPI wrappers, before "
               "issue 25, or by the Python package): point-to-point wait states need it; "
               "waits at N x N collectives are computed from entry times, assuming every "
               "collective is on MPI_COMM_WORLD.\n");
    if (w->unaligned_calls)
        printf("%" PRIu64 " MPI calls have peer records that do not line up with their events "
               "(calls of other threads, or dropped calls): left out.\n",
               w->unaligned_calls);
    if (w->incomplete_ranks)
        printf("%" PRIu64 " ranks ran out of memory for peer records: their later calls have "
               "none.\n",
               w->incomplete_ranks);
}

enum { PATH_LINES = 10 }; /* POP per call path without --top */

static void print_text(const sp_waits *w, const char *path, long top) {
    printf("Wait states of %s (%u ranks)\n\n", path, w->num_ranks);
    print_missing(w);
    printf("Messages matched: %" PRIu64 ", unmatched sends: %" PRIu64
           ", unmatched receives: %" PRIu64 "\n",
           w->messages, w->unmatched_sends, w->unmatched_receives);
    printf("Collective operations: %" PRIu64 ", not matched across ranks: %" PRIu64 "\n",
           w->collectives, w->unmatched_collectives);
    printf("Late Receiver assumes messages below %" PRId64 " bytes are sent eagerly "
           "(--eager-bytes).\n\n",
           w->eager_bytes);
    for (int k = 0; k < SP_WAIT_KINDS; k++)
        if (w->total_ns[k])
            printf("  %-20s %12.3f ms\n", kind_title((sp_wait_kind)k), ms(w->total_ns[k]));
    printf("\n%-20s %7s %12s %6s  %-8s  %s\n", "kind", "waiting", "time (ms)", "count", "late",
           "waiting in / caused by");
    for (size_t i = 0; i < w->num_rows && (top == 0 || (long)i < top); i++) {
        const sp_wait_row *r = &w->rows[i];
        printf("%-20s %7u %12.3f %6" PRIu64 "  rank %-3u  %s\n%60s<- %s\n", kind_title(r->kind),
               r->waiting_rank, ms(r->wait_ns), r->count, r->late_rank, r->call_path, "",
               r->late_path[0] ? r->late_path : "(outside any region)");
    }
    const sp_pop *p = &w->pop;
    printf("\nPOP efficiencies (docs/parallel.md §6.4)\n");
    printf("  parallel efficiency       %6.1f %%\n", 100 * p->parallel);
    printf("    load balance            %6.1f %%\n", 100 * p->load_balance);
    printf("    communication           %6.1f %%\n", 100 * p->communication);
    printf("      serialisation         %6.1f %%\n", 100 * p->serialisation);
    printf("      transfer              %6.1f %%\n", 100 * p->transfer);
    printf("  runtime %.3f ms, on an ideal network %.3f ms\n", ms(p->runtime_ns),
           ms(p->ideal_runtime_ns));
    if (!w->num_paths) return;
    size_t shown = top > 0 && (size_t)top < w->num_paths ? (size_t)top : w->num_paths;
    if (!top && shown > PATH_LINES) shown = PATH_LINES;
    printf("\nPOP per call path (%%; longest first)\n%7s %7s %7s %7s %7s %12s  %s\n", "PE", "LB",
           "CommE", "SerE", "TE", "time (ms)", "call path");
    for (size_t i = 0; i < shown; i++) {
        const sp_pop *q = &w->paths[i].pop;
        printf("%7.1f %7.1f %7.1f %7.1f %7.1f %12.3f  %s\n", 100 * q->parallel,
               100 * q->load_balance, 100 * q->communication, 100 * q->serialisation,
               100 * q->transfer, ms(q->runtime_ns), w->paths[i].path);
    }
    if (shown < w->num_paths)
        printf("  ... %zu more (--top N, --format json)\n", w->num_paths - shown);
}

static void json_string(sp_textbuf *b, const char *key, const char *value) {
    sp_textbuf_printf(b, "\"%s\": ", key);
    sp_json_escape(b, value);
}

static void json_pop(sp_textbuf *b, const sp_pop *p) {
    sp_textbuf_printf(b,
                      "{\"parallel_efficiency\": %.6f, \"load_balance\": %.6f, "
                      "\"communication_efficiency\": %.6f, \"serialisation_efficiency\": %.6f, "
                      "\"transfer_efficiency\": %.6f, \"runtime_ns\": %" PRId64
                      ", \"ideal_runtime_ns\": %" PRId64 "}",
                      p->parallel, p->load_balance, p->communication, p->serialisation, p->transfer,
                      p->runtime_ns, p->ideal_runtime_ns);
}

static char *to_json(const sp_waits *w, const char *path) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, "{");
    json_string(&b, "file", path);
    sp_textbuf_printf(&b,
                      ", \"num_ranks\": %u, \"peer_data\": %s, \"eager_bytes\": %" PRId64
                      ", \"messages\": %" PRIu64 ", \"unmatched_sends\": %" PRIu64
                      ", \"unmatched_receives\": %" PRIu64 ", \"unaligned_calls\": %" PRIu64
                      ", \"incomplete_ranks\": %" PRIu64 ", \"collectives\": %" PRIu64
                      ", \"unmatched_collectives\": %" PRIu64 ", \"totals_ns\": {",
                      w->num_ranks, w->peer_data ? "true" : "false", w->eager_bytes, w->messages,
                      w->unmatched_sends, w->unmatched_receives, w->unaligned_calls,
                      w->incomplete_ranks, w->collectives, w->unmatched_collectives);
    for (int k = 0; k < SP_WAIT_KINDS; k++)
        sp_textbuf_printf(&b, "%s\"%s\": %" PRId64, k ? ", " : "",
                          sp_wait_kind_name((sp_wait_kind)k), w->total_ns[k]);
    sp_textbuf_append(&b, "}, \"waits\": [");
    for (size_t i = 0; i < w->num_rows; i++) {
        const sp_wait_row *r = &w->rows[i];
        sp_textbuf_printf(&b, "%s{\"kind\": \"%s\", \"waiting_rank\": %u, \"late_rank\": %u, ",
                          i ? ", " : "", sp_wait_kind_name(r->kind), r->waiting_rank, r->late_rank);
        json_string(&b, "call_path", r->call_path);
        sp_textbuf_append(&b, ", ");
        json_string(&b, "late_path", r->late_path);
        sp_textbuf_printf(&b, ", \"wait_ns\": %" PRId64 ", \"count\": %" PRIu64 "}", r->wait_ns,
                          r->count);
    }
    sp_textbuf_append(&b, "], \"ranks\": [");
    for (uint32_t r = 0; r < w->num_ranks; r++)
        sp_textbuf_printf(&b,
                          "%s{\"rank\": %u, \"useful_ns\": %" PRId64 ", \"wait_ns\": %" PRId64 "}",
                          r ? ", " : "", r, w->rank_useful_ns[r], w->rank_wait_ns[r]);
    sp_textbuf_append(&b, "], \"pop\": ");
    json_pop(&b, &w->pop);
    sp_textbuf_append(&b, ", \"pop_paths\": [");
    for (size_t i = 0; i < w->num_paths; i++) {
        sp_textbuf_append(&b, i ? ", {" : "{");
        json_string(&b, "call_path", w->paths[i].path);
        sp_textbuf_append(&b, ", \"pop\": ");
        json_pop(&b, &w->paths[i].pop);
        sp_textbuf_append(&b, "}");
    }
    sp_textbuf_append(&b, "]}\n");
    return sp_textbuf_take(&b);
}

static int run(const char *path, const waits_options *o) {
    sp_error err = {0};
    sp_model m = {0};
    if (sp_read_model(path, &m, &err)) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    if (m.layout == SP_LAYOUT_AGGREGATE) {
        sp_model_clear(&m);
        cli_error("waits: %s is an aggregate profile (no per-call times); record it without "
                  "--aggregate for wait states",
                  path);
        return CLI_EXIT_USAGE;
    }
    sp_align_rank_clocks(&m);
    sp_peer_table peers;
    int present = 0;
    sp_status st = sp_peer_table_read(path, &peers, &present, &err);
    sp_waits w;
    if (!st) st = sp_waits_compute(&m, present ? &peers : NULL, o->eager_bytes, &w, &err);
    if (present) sp_peer_table_free(&peers);
    sp_model_clear(&m);
    if (st) {
        cli_error_sp(&err);
        return st == SP_ERR_OUT_OF_MEMORY ? cli_out_of_memory() : CLI_EXIT_USAGE;
    }
    int rc = 0;
    if (o->json) {
        char *text = to_json(&w, path);
        if (text)
            fputs(text, stdout);
        else
            rc = cli_out_of_memory();
        free(text);
    } else {
        print_text(&w, path, o->top);
    }
    sp_waits_free(&w);
    return rc;
}

int cli_waits(int argc, char **argv) {
    static const cli_command_spec spec = {"waits", cli_help_waits, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    waits_options o = {0, DEFAULT_EAGER_BYTES, 20};
    cli_list args = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc && args.count != 1)
        rc = cli_usage_error("waits", "expected one profile file, got %zu", args.count);
    if (!rc) rc = run(args.items[0], &o);
    cli_list_free(&args);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
