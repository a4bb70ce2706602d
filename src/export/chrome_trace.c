/*
 * chrome-trace: the Trace Event Format's JSON object form, as the Python
 * package writes it (same top-level keys, event fields and args): one
 * complete event ("ph": "X") per call, ts/dur in microseconds with every
 * nanosecond kept (exact decimals, not floats), pid = rank, tid = thread,
 * process_name/thread_name metadata events, written as the walk reaches them.
 * With raw_clock (docs/cli.md: `--ranks 0 --raw-clock` is the Python
 * package's export) times are its floats: seconds = ns / 1e9, differences
 * of those, times 1e6 for microseconds, printed as repr(), and the events
 * come in its order: per rank, its lanes' names, then region by region (the
 * region table's order), each region's calls in call_index order. That order
 * holds one rank's calls in memory (about 150 bytes each); the default order
 * (the call tree) streams.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"
#include "common/py_float.h"
#include "export/formats.h"
#include "export/names.h"

typedef struct chrome {
    sp_export_job *job;
    sp_names names;
    int64_t origin;
    uint8_t *lane_named;
    const char **source_raw; /* per region: the source file last escaped */
    char **source_json;
    int oom;
    int any;            /* an item was written: the next one needs a comma */
    sp_walk_call *held; /* raw clock: the rank's calls, written once it is walked */
    size_t num_held, cap_held;
} chrome;

static void next_item(chrome *c) {
    if (c->any) sp_sink_puts(c->job->sink, ",\n");
    c->any = 1;
}

static int put_header(sp_export_job *job) {
    sp_sink *s = job->sink;
    int ok = 1;
    sp_sink_puts(s, "{\"displayTimeUnit\":\"ms\",\"metadata\":{\"name\":");
    ok &= sp_sink_json_string(s, sp_results_display_label(job->r));
    sp_sink_puts(s, ",\"exporter\":\"" SP_EXPORTER "\",\"run_metadata\":{");
    for (size_t i = 0; i < sp_results_num_metadata(job->r); i++) {
        sp_metadata_item it;
        sp_results_metadata_at(job->r, i, &it);
        if (i) sp_sink_putc(s, ',');
        ok &= sp_sink_json_string(s, it.key);
        sp_sink_putc(s, ':');
        sp_sink_json_meta_value(s, &it, &ok);
    }
    sp_sink_puts(s, "}},\"traceEvents\":[\n");
    return ok;
}

static void put_process(chrome *c, uint32_t rank) {
    sp_sink *s = c->job->sink;
    next_item(c);
    sp_sink_puts(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":");
    sp_sink_u64(s, rank);
    sp_sink_puts(s, ",\"tid\":0,\"args\":{\"name\":\"rank ");
    sp_sink_u64(s, rank);
    sp_sink_puts(s, "\"}}");
}

static void put_thread(chrome *c, const sp_walk_lane *lane) {
    sp_sink *s = c->job->sink;
    next_item(c);
    sp_sink_puts(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
    sp_sink_u64(s, lane->rank);
    sp_sink_puts(s, ",\"tid\":");
    sp_sink_i64(s, lane->thread);
    sp_sink_puts(s, ",\"args\":{\"name\":");
    if (lane->only_lane && !lane->name[0]) {
        sp_sink_puts(s, "\"rank ");
        sp_sink_u64(s, lane->rank);
        sp_sink_puts(s, "\",\"lane\":\"rank\"}}");
        return;
    }
    if (lane->name[0]) {
        if (!sp_sink_json_string(s, lane->name)) c->oom = 1;
    } else {
        sp_sink_puts(s, "\"thread ");
        sp_sink_i64(s, lane->thread);
        sp_sink_putc(s, '"');
    }
    /* the keys the Python package writes for a thread lane */
    sp_sink_puts(s, ",\"lane\":\"thread\",\"thread_index\":");
    sp_sink_i64(s, lane->thread);
    const sp_thread_info *t = lane->info;
    if (t) {
        sp_sink_puts(s, ",\"native_id\":");
        sp_sink_i64(s, t->native_id);
        sp_sink_puts(s, ",\"ident\":");
        sp_sink_i64(s, t->ident);
        if (t->cpu_ns >= 0) {
            char num[SP_PY_FLOAT_REPR_SIZE];
            sp_py_float_repr((double)t->cpu_ns / 1e9, num);
            sp_sink_puts(s, ",\"cpu_time_s\":");
            sp_sink_puts(s, num);
        }
    }
    sp_sink_puts(s, "}}");
}

/* The row's source file as a JSON literal, escaped once per distinct text. */
static const char *source_json(chrome *c, uint32_t region, const char *file) {
    if (c->source_raw[region] != file) {
        char *lit = sp_json_literal(file);
        if (!lit) return NULL;
        free(c->source_json[region]);
        c->source_json[region] = lit;
        c->source_raw[region] = file;
    }
    return c->source_json[region];
}

static void name_lane(chrome *c, size_t lane) {
    if (c->lane_named[lane]) return;
    c->lane_named[lane] = 1;
    put_thread(c, sp_call_walker_lane(c->job->w, lane));
}

static sp_status write_call(chrome *c, const sp_walk_call *call) {
    sp_sink *s = c->job->sink;
    name_lane(c, call->lane);
    int64_t dur = call->end_ns - call->start_ns;
    int py = c->job->options->select.raw_clock;
    next_item(c);
    sp_sink_puts(s, "{\"name\":");
    sp_sink_write(s, c->names.text[call->region], c->names.len[call->region]);
    sp_sink_puts(s, ",\"cat\":\"scope-profiler\",\"ph\":\"X\",\"ts\":");
    if (py) { /* the Python package's float arithmetic, digit for digit */
        sp_sink_py_float(s, (sp_py_seconds(call->start_ns) - sp_py_seconds(c->origin)) * 1e6);
        sp_sink_puts(s, ",\"dur\":");
        sp_sink_py_float(s, (sp_py_seconds(call->end_ns) - sp_py_seconds(call->start_ns)) * 1e6);
    } else {
        sp_sink_scaled(s, call->start_ns - c->origin, 3);
        sp_sink_puts(s, ",\"dur\":");
        sp_sink_scaled(s, dur, 3);
    }
    sp_sink_puts(s, ",\"pid\":");
    sp_sink_u64(s, call->rank);
    sp_sink_puts(s, ",\"tid\":");
    sp_sink_i64(s, call->thread);
    if (c->job->options->no_args) {
        sp_sink_puts(s, "}");
        return SP_OK;
    }
    sp_sink_puts(s, ",\"args\":{\"rank\":");
    sp_sink_u64(s, call->rank);
    sp_sink_puts(s, ",\"call_index\":");
    sp_sink_u64(s, call->call_index);
    sp_sink_puts(s, ",\"duration_s\":");
    if (py)
        sp_sink_py_float(s, sp_py_seconds(call->end_ns) - sp_py_seconds(call->start_ns));
    else
        sp_sink_scaled(s, dur, 9);
    sp_sink_puts(s, ",\"call_id\":");
    sp_sink_i64(s, call->call_id);
    sp_sink_puts(s, ",\"parent_id\":");
    sp_sink_i64(s, call->parent_id);
    const sp_model_row *row = &c->job->r->m.rows[call->row];
    if (row->source_file[0]) {
        const char *lit = source_json(c, call->region, row->source_file);
        if (!lit) return sp_error_set(c->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        sp_sink_puts(s, ",\"source_file\":");
        sp_sink_puts(s, lit);
    }
    if (row->source_line >= 0) {
        sp_sink_puts(s, ",\"source_line\":");
        sp_sink_i64(s, row->source_line);
    }
    sp_sink_puts(s, "}}");
    return c->oom ? sp_error_set(c->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory") : SP_OK;
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    return write_call(ctx, call);
}

/* Raw clock: keeps the call for write_held(). */
static sp_status hold_call(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    chrome *c = ctx;
    if (c->num_held == c->cap_held) {
        size_t cap = c->cap_held ? 2 * c->cap_held : 1024;
        sp_walk_call *grown = realloc(c->held, cap * sizeof *grown);
        if (!grown) return sp_error_set(c->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        c->held = grown;
        c->cap_held = cap;
    }
    c->held[c->num_held++] = *call;
    return SP_OK;
}

/* The Python package's order: region by region, then call_index. */
static int by_region_then_index(const void *a, const void *b) {
    const sp_walk_call *p = a, *q = b;
    if (p->region != q->region) return p->region < q->region ? -1 : 1;
    if (p->call_index != q->call_index) return p->call_index < q->call_index ? -1 : 1;
    return (p->event > q->event) - (p->event < q->event);
}

static sp_status write_held(chrome *c, uint32_t rank) {
    for (size_t i = 0; i < sp_call_walker_num_lanes(c->job->w); i++)
        if (sp_call_walker_lane(c->job->w, i)->rank == rank) name_lane(c, i);
    qsort(c->held, c->num_held, sizeof *c->held, by_region_then_index);
    sp_status st = SP_OK;
    for (size_t i = 0; i < c->num_held && st == SP_OK; i++)
        st = write_call(c, &c->held[i]);
    c->num_held = 0;
    return st;
}

static sp_status walk(chrome *c) {
    sp_export_job *job = c->job;
    int python_order = job->options->select.raw_clock;
    sp_walk_visitor v = {python_order ? hold_call : on_enter, NULL, c};
    for (size_t i = 0; i < sp_call_walker_num_ranks(job->w); i++) {
        uint32_t rank = sp_call_walker_rank(job->w, i);
        put_process(c, rank);
        sp_status st = sp_call_walker_run(job->w, rank, SP_WALK_ALL_LANES, &v, job->err);
        if (st == SP_OK && python_order) st = write_held(c, rank);
        if (st != SP_OK) return st;
    }
    return SP_OK;
}

sp_status sp_write_chrome_trace(sp_export_job *job) {
    size_t regions = sp_results_num_regions(job->r);
    chrome c;
    memset(&c, 0, sizeof c);
    c.job = job;
    c.origin = sp_results_time_origin_ns(job->r);
    sp_status st = sp_names_build(&c.names, job->r, SP_NAMES_JSON, job->err);
    if (st != SP_OK) return st;
    c.lane_named = calloc(sp_call_walker_num_lanes(job->w) + 1, 1);
    c.source_raw = calloc(regions + 1, sizeof *c.source_raw);
    c.source_json = calloc(regions + 1, sizeof *c.source_json);
    if (!c.lane_named || !c.source_raw || !c.source_json || !put_header(job))
        st = sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    if (st == SP_OK) st = walk(&c);
    if (st == SP_OK) sp_sink_puts(job->sink, "\n]}\n");
    for (size_t i = 0; c.source_json && i < regions; i++)
        free(c.source_json[i]);
    free(c.source_json);
    free(c.source_raw);
    free(c.lane_named);
    free(c.held);
    sp_names_free(&c.names);
    return st;
}
