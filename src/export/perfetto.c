/*
 * perfetto: Perfetto's native protobuf trace (a Trace message: repeated
 * TracePacket packet = 1), written packet by packet. Each rank is a process
 * track (pid = rank + 1: Perfetto reserves pid 0), each of its thread lanes a
 * thread track below it (tid unique over the trace); each call is a
 * TYPE_SLICE_BEGIN and a TYPE_SLICE_END TrackEvent on its thread's track.
 * Region names are interned (InternedData.event_names, iid = region + 1) on
 * one packet sequence. Timestamps: ns from the run's first call (output clock).
 * Field numbers are Perfetto's public ones (tests/export/perfetto_subset.proto).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"
#include "export/formats.h"
#include "export/names.h"
#include "export/protobuf.h"

enum {
    TRACE_PACKET = 1,
    PACKET_TIMESTAMP = 8,
    PACKET_SEQUENCE_ID = 10,
    PACKET_TRACK_EVENT = 11,
    PACKET_INTERNED_DATA = 12,
    PACKET_SEQUENCE_FLAGS = 13,
    PACKET_TRACK_DESCRIPTOR = 60,
    EVENT_TYPE = 9,
    EVENT_NAME_IID = 10,
    EVENT_TRACK_UUID = 11,
    INTERNED_EVENT_NAMES = 2,
    NAME_IID = 1,
    NAME_NAME = 2,
    TRACK_UUID = 1,
    TRACK_PROCESS = 3,
    TRACK_THREAD = 4,
    TRACK_PARENT_UUID = 5,
    PROCESS_PID = 1,
    PROCESS_NAME = 6,
    THREAD_PID = 1,
    THREAD_TID = 2,
    THREAD_NAME = 5
};

enum { SLICE_BEGIN = 1, SLICE_END = 2 };
enum { SEQ_STATE_CLEARED = 1, SEQ_NEEDS_STATE = 2 };
#define SEQUENCE_ID 1

typedef struct perfetto {
    sp_export_job *job;
    sp_names names;     /* valid UTF-8 */
    uint8_t *interned;  /* per region */
    uint8_t *described; /* per lane */
    int64_t base;       /* subtracted from every time */
    uint64_t rank_uuid; /* the current rank's process track */
    int first;          /* no packet written yet */
    sp_pb packet, event, sub, sub2;
} perfetto;

static void put_packet(perfetto *p) {
    sp_pb *pk = &p->packet;
    uint8_t head[12];
    sp_pb h = {head, 0, sizeof head, 0};
    sp_pb_key(&h, TRACE_PACKET, SP_PB_BYTES);
    sp_pb_varint(&h, pk->len);
    sp_sink_write(p->job->sink, head, h.len);
    sp_sink_write(p->job->sink, pk->data, pk->len);
    pk->len = 0;
}

static void sequence_fields(perfetto *p, sp_pb *pk) {
    sp_pb_uint(pk, PACKET_SEQUENCE_ID, SEQUENCE_ID);
    sp_pb_uint(pk, PACKET_SEQUENCE_FLAGS, p->first ? SEQ_STATE_CLEARED : SEQ_NEEDS_STATE);
    p->first = 0;
}

static void utf8_text(sp_pb *b, uint32_t field, const char *text) {
    sp_textbuf t = SP_TEXTBUF_INIT;
    sp_name_append(&t, text, SP_NAMES_UTF8);
    if (sp_textbuf_failed(&t)) b->failed = 1;
    sp_pb_bytes(b, field, t.data ? t.data : "", t.len);
    sp_textbuf_free(&t);
}

static void describe_process(perfetto *p, uint32_t rank) {
    char name[32];
    int n = snprintf(name, sizeof name, "rank %u", (unsigned)rank);
    p->sub.len = p->sub2.len = 0;
    sp_pb_uint(&p->sub2, PROCESS_PID, (uint64_t)rank + 1);
    sp_pb_bytes(&p->sub2, PROCESS_NAME, name, (size_t)n);
    sp_pb_uint(&p->sub, TRACK_UUID, p->rank_uuid);
    sp_pb_message(&p->sub, TRACK_PROCESS, &p->sub2);
    sp_pb_message(&p->packet, PACKET_TRACK_DESCRIPTOR, &p->sub);
    sequence_fields(p, &p->packet);
    put_packet(p);
}

static void describe_thread(perfetto *p, size_t lane_index) {
    const sp_walk_lane *lane = sp_call_walker_lane(p->job->w, lane_index);
    char fallback[64];
    const char *name = lane->name;
    if (!name[0]) {
        if (lane->only_lane)
            snprintf(fallback, sizeof fallback, "rank %u", (unsigned)lane->rank);
        else
            snprintf(fallback, sizeof fallback, "thread %lld", (long long)lane->thread);
        name = fallback;
    }
    p->sub.len = p->sub2.len = 0;
    sp_pb_uint(&p->sub2, THREAD_PID, (uint64_t)lane->rank + 1);
    sp_pb_uint(&p->sub2, THREAD_TID, (uint64_t)lane_index + 1);
    utf8_text(&p->sub2, THREAD_NAME, name);
    sp_pb_uint(&p->sub, TRACK_UUID, (uint64_t)lane_index + 1);
    sp_pb_uint(&p->sub, TRACK_PARENT_UUID, p->rank_uuid);
    sp_pb_message(&p->sub, TRACK_THREAD, &p->sub2);
    sp_pb_message(&p->packet, PACKET_TRACK_DESCRIPTOR, &p->sub);
    sequence_fields(p, &p->packet);
    put_packet(p);
}

static uint8_t *put_varint(uint8_t *at, uint64_t v) {
    while (v >= 0x80) {
        *at++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *at++ = (uint8_t)v;
    return at;
}

/* A key byte: field number and wire type (all fields here are below 16). */
#define KEY(field, wire) ((uint8_t)((field) << 3 | (wire)))

/* The common case, a slice of an already interned name, encoded in place:
 * the same fields in the same order as slice() writes them. */
static void fast_slice(perfetto *p, const sp_walk_call *call, int type, uint64_t t) {
    uint8_t ev[40], *e = ev;
    *e++ = KEY(EVENT_TYPE, SP_PB_VARINT);
    *e++ = (uint8_t)type;
    *e++ = KEY(EVENT_TRACK_UUID, SP_PB_VARINT);
    e = put_varint(e, (uint64_t)call->lane + 1);
    if (type == SLICE_BEGIN) {
        *e++ = KEY(EVENT_NAME_IID, SP_PB_VARINT);
        e = put_varint(e, (uint64_t)call->region + 1);
    }
    uint8_t pk[96], *q = pk;
    *q++ = KEY(PACKET_TIMESTAMP, SP_PB_VARINT);
    q = put_varint(q, t);
    *q++ = KEY(PACKET_TRACK_EVENT, SP_PB_BYTES);
    q = put_varint(q, (uint64_t)(e - ev));
    memcpy(q, ev, (size_t)(e - ev));
    q += e - ev;
    *q++ = KEY(PACKET_SEQUENCE_ID, SP_PB_VARINT);
    *q++ = SEQUENCE_ID;
    *q++ = KEY(PACKET_SEQUENCE_FLAGS, SP_PB_VARINT);
    *q++ = SEQ_NEEDS_STATE;
    uint8_t *out = (uint8_t *)sp_sink_reserve(p->job->sink, sizeof pk + 12), *o = out;
    *o++ = KEY(TRACE_PACKET, SP_PB_BYTES);
    o = put_varint(o, (uint64_t)(q - pk));
    memcpy(o, pk, (size_t)(q - pk));
    o += q - pk;
    sp_sink_advance(p->job->sink, (size_t)(o - out));
}

static sp_status slice(perfetto *p, const sp_walk_call *call, int type) {
    int64_t t = (type == SLICE_BEGIN ? call->start_ns : call->end_ns) - p->base;
    if (!p->first && (type == SLICE_END || p->interned[call->region])) {
        fast_slice(p, call, type, (uint64_t)(t > 0 ? t : 0));
        return SP_OK;
    }
    sp_pb *ev = &p->event, *pk = &p->packet;
    ev->len = 0;
    sp_pb_uint(ev, EVENT_TYPE, (uint64_t)type);
    sp_pb_uint(ev, EVENT_TRACK_UUID, (uint64_t)call->lane + 1);
    if (type == SLICE_BEGIN) sp_pb_uint(ev, EVENT_NAME_IID, (uint64_t)call->region + 1);
    sp_pb_uint(pk, PACKET_TIMESTAMP, (uint64_t)(t > 0 ? t : 0));
    sp_pb_message(pk, PACKET_TRACK_EVENT, ev);
    if (type == SLICE_BEGIN && !p->interned[call->region]) {
        p->interned[call->region] = 1;
        p->sub.len = p->sub2.len = 0;
        sp_pb_uint(&p->sub2, NAME_IID, (uint64_t)call->region + 1);
        sp_pb_bytes(&p->sub2, NAME_NAME, p->names.text[call->region], p->names.len[call->region]);
        sp_pb_message(&p->sub, INTERNED_EVENT_NAMES, &p->sub2);
        sp_pb_message(pk, PACKET_INTERNED_DATA, &p->sub);
    }
    sequence_fields(p, pk);
    if (pk->failed || ev->failed || p->sub.failed || p->sub2.failed)
        return sp_error_set(p->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    put_packet(p);
    return SP_OK;
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    perfetto *p = ctx;
    if (!p->described[call->lane]) {
        p->described[call->lane] = 1;
        describe_thread(p, call->lane);
    }
    return slice(p, call, SLICE_BEGIN);
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    return slice(ctx, call, SLICE_END);
}

/* The lowest time written: the first call, less the largest raw-clock shift. */
static int64_t time_base(const sp_export_job *job) {
    int64_t base = sp_results_minimum_start_time_ns(job->r), shift = 0;
    if (job->options->select.raw_clock) {
        const sp_model *m = &job->r->m;
        for (size_t i = 0; i < m->num_clock_offsets; i++)
            if (m->clock_offsets[i].offset_ns > shift) shift = m->clock_offsets[i].offset_ns;
    }
    return base - shift;
}

sp_status sp_write_perfetto(sp_export_job *job) {
    perfetto p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.first = 1;
    p.base = time_base(job);
    sp_status st = sp_names_build(&p.names, job->r, SP_NAMES_UTF8, job->err);
    if (st != SP_OK) return st;
    size_t lanes = sp_call_walker_num_lanes(job->w);
    p.interned = calloc(p.names.count + 1, 1);
    p.described = calloc(lanes + 1, 1);
    if (!p.interned || !p.described)
        st = sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_walk_visitor v = {on_enter, on_leave, &p};
    for (size_t i = 0; st == SP_OK && i < sp_call_walker_num_ranks(job->w); i++) {
        uint32_t rank = sp_call_walker_rank(job->w, i);
        p.rank_uuid = (uint64_t)lanes + 1 + i;
        describe_process(&p, rank);
        st = sp_call_walker_run(job->w, rank, SP_WALK_ALL_LANES, &v, job->err);
    }
    if (st == SP_OK && (p.packet.failed || p.sub.failed || p.sub2.failed))
        st = sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_pb_free(&p.packet);
    sp_pb_free(&p.event);
    sp_pb_free(&p.sub);
    sp_pb_free(&p.sub2);
    free(p.interned);
    free(p.described);
    sp_names_free(&p.names);
    return st;
}
