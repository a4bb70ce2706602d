/*
 * speedscope: its JSON file format with the Python package's top-level fields
 * ($schema, exporter, name, activeProfileIndex, shared.frames, profiles): one
 * evented profile per (rank, thread) lane, frames = the region table, "O"/"C"
 * events in seconds from the run's first call (exact decimals of the ns).
 * Lanes are walked one after the other (a rank with T threads is walked T
 * times) so that each profile streams out whole.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "export/formats.h"
#include "export/names.h"

typedef struct scope {
    sp_export_job *job;
    int64_t zero;
    size_t lane;
    int profile_open; /* this lane's profile header is written */
    int any_profile;
    int any_event;
    int64_t first_at, last_at;
    int oom;
    int measuring;  /* raw clock: a first walk of the lane only finds its first and last event */
    int span_known; /* startValue/endValue were written before the events */
    /* the other thread's calls above the lane's open top-level call, innermost first */
    uint32_t context[64];
    size_t num_context;
} scope;

/* "startValue":...,"endValue":...: the profile's first and last event. */
static void put_span(scope *c) {
    sp_sink *s = c->job->sink;
    sp_sink_puts(s, "\"startValue\":");
    if (c->job->options->select.raw_clock) {
        sp_sink_py_float(s, sp_py_seconds(c->first_at + c->zero) - sp_py_seconds(c->zero));
        sp_sink_puts(s, ",\"endValue\":");
        sp_sink_py_float(s, sp_py_seconds(c->last_at + c->zero) - sp_py_seconds(c->zero));
    } else {
        sp_sink_scaled(s, c->first_at, 9);
        sp_sink_puts(s, ",\"endValue\":");
        sp_sink_scaled(s, c->last_at, 9);
    }
}

static void open_profile(scope *c) {
    sp_sink *s = c->job->sink;
    const sp_walk_lane *lane = sp_call_walker_lane(c->job->w, c->lane);
    if (c->any_profile) sp_sink_putc(s, ',');
    c->any_profile = 1;
    c->profile_open = 1;
    c->any_event = 0;
    sp_sink_puts(s, "\n{\"type\":\"evented\",\"name\":");
    sp_textbuf name = SP_TEXTBUF_INIT;
    sp_textbuf_printf(&name, "rank %u", (unsigned)lane->rank);
    if (!lane->only_lane || lane->name[0]) {
        sp_textbuf_printf(&name, " thread %lld", (long long)lane->thread);
        if (lane->name[0]) sp_textbuf_printf(&name, " (%s)", lane->name);
    }
    const char *text = sp_textbuf_str(&name);
    if (!text || !sp_sink_json_string(s, text)) c->oom = 1;
    sp_textbuf_free(&name);
    sp_sink_puts(s, ",\"unit\":\"seconds\",");
    if (c->span_known) { /* the Python package's key order */
        put_span(c);
        sp_sink_putc(s, ',');
    }
    sp_sink_puts(s, "\"events\":[");
}

static void put_event(scope *c, char type, uint32_t frame, int64_t at_ns) {
    sp_sink *s = c->job->sink;
    if (c->measuring) {
        if (!c->any_event) c->first_at = at_ns;
        c->any_event = 1;
        c->last_at = at_ns;
        return;
    }
    if (c->any_event) sp_sink_putc(s, ',');
    if (!c->any_event) c->first_at = at_ns;
    c->any_event = 1;
    c->last_at = at_ns;
    sp_sink_puts(s, type == 'O' ? "\n{\"type\":\"O\",\"frame\":" : "\n{\"type\":\"C\",\"frame\":");
    sp_sink_u64(s, frame);
    sp_sink_puts(s, ",\"at\":");
    if (c->job->options->select.raw_clock) /* the Python package's floats */
        sp_sink_py_float(s, sp_py_seconds(at_ns + c->zero) - sp_py_seconds(c->zero));
    else
        sp_sink_scaled(s, at_ns, 9);
    sp_sink_putc(s, '}');
}

/* A top-level call that another thread forked opens its ancestors there
 * first, so that each thread's stacks are the call paths of every other view. */
static void open_context(scope *c, const sp_walk_call *call, const sp_walk_call *parent) {
    c->num_context = 0;
    for (const sp_walk_call *up = parent; up && c->num_context < 64;
         up = sp_call_walker_parent(c->job->w, up))
        c->context[c->num_context++] = up->region;
    for (size_t k = c->num_context; k-- > 0;)
        put_event(c, 'O', c->context[k], call->start_ns - c->zero);
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    scope *c = ctx;
    if (!c->profile_open && !c->measuring) open_profile(c);
    if (call->cross_lane) open_context(c, call, parent);
    put_event(c, 'O', call->region, call->start_ns - c->zero);
    return c->oom ? sp_error_set(c->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory") : SP_OK;
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    scope *c = ctx;
    put_event(c, 'C', call->region, call->end_ns - c->zero);
    if (call->cross_lane)
        for (size_t k = 0; k < c->num_context; k++)
            put_event(c, 'C', c->context[k], call->end_ns - c->zero);
    return SP_OK;
}

static void close_profile(scope *c) {
    sp_sink *s = c->job->sink;
    sp_sink_putc(s, ']');
    if (!c->span_known) { /* streamed: known once the events are out */
        sp_sink_putc(s, ',');
        put_span(c);
    }
    sp_sink_putc(s, '}');
    c->profile_open = 0;
}

static int put_header(sp_export_job *job) {
    sp_sink *s = job->sink;
    int ok = 1;
    sp_sink_puts(s, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                    "\"exporter\":\"" SP_EXPORTER "\",\"name\":");
    ok &= sp_sink_json_string(s, sp_results_display_label(job->r));
    sp_sink_puts(s, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
    sp_names names;
    if (sp_names_build(&names, job->r, SP_NAMES_JSON, NULL) != SP_OK) return 0;
    for (size_t i = 0; i < names.count; i++) {
        sp_sink_puts(s, i ? ",\n{\"name\":" : "\n{\"name\":");
        sp_sink_write(s, names.text[i], names.len[i]);
        sp_sink_putc(s, '}');
    }
    sp_names_free(&names);
    sp_sink_puts(s, "]},\"profiles\":[");
    return ok;
}

sp_status sp_write_speedscope(sp_export_job *job) {
    if (!put_header(job)) return sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    scope c;
    memset(&c, 0, sizeof c);
    c.job = job;
    c.zero = sp_results_minimum_start_time_ns(job->r);
    sp_walk_visitor v = {on_enter, on_leave, &c};
    for (size_t i = 0; i < sp_call_walker_num_lanes(job->w); i++) {
        c.lane = i;
        uint32_t rank = sp_call_walker_lane(job->w, i)->rank;
        /* raw clock: the Python package writes the span before the events,
         * so the lane is walked once to find it */
        c.span_known = job->options->select.raw_clock;
        if (c.span_known) {
            c.measuring = 1;
            c.any_event = 0;
            sp_status st = sp_call_walker_run(job->w, rank, i, &v, job->err);
            c.measuring = 0;
            if (st != SP_OK) return st;
        }
        sp_status st = sp_call_walker_run(job->w, rank, i, &v, job->err);
        if (st != SP_OK) return st;
        if (c.profile_open) close_profile(&c);
    }
    sp_sink_puts(job->sink, "\n]}\n");
    return SP_OK;
}
