/*
 * A call path's durations in pooling order (§5.1 step 4), kept for its sum,
 * standard deviation and exact percentiles. A whole read already holds every
 * duration in the model's column, and a path's calls are mostly runs of
 * consecutive calls of one row: such runs are borrowed as spans of the
 * column instead of copied (8 bytes per call saved). Values from elsewhere
 * (a streamed window, a call whose duration differs from the column's) and
 * runs too short to be worth a span are copied into chunks the node owns.
 */
#ifndef SP_ANALYSIS_NODE_CALLS_H
#define SP_ANALYSIS_NODE_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/numpy_stats.h"
#include "scope_profiler/results.h"

typedef struct sp_node_calls {
    sp_span *spans; /* every value in order: borrowed runs and runs in the chunks */
    size_t num_spans, spans_cap;
    int last_borrowed; /* the last span is borrowed (else it ends at the chunk's fill) */
    int64_t **chunks;  /* copied values, chunk i holding sp_chunk_size(i) */
    size_t num_chunks, chunks_cap, last_fill;
    uint64_t count;
} sp_node_calls;

/* Chunks grow from 16 values to 64 Ki values: small paths stay small, and
 * large ones never copy their data to grow. */
static inline size_t sp_chunk_size(size_t i) {
    return i < 12 ? (size_t)16 << i : (size_t)65536;
}

/* Appends *at, which stays valid and unchanged while c holds it. */
sp_status sp_node_calls_borrow(sp_node_calls *c, const int64_t *at);

/* Appends a copy of value. */
sp_status sp_node_calls_copy(sp_node_calls *c, int64_t value);

void sp_node_calls_free(sp_node_calls *c);

#endif
