/*
 * Rebuilding the call tree of one rank from timestamps (the Python
 * package's rule): calls in (start ascending, end descending) order, ties in the order of
 * the given rows; a call's parent is the innermost call still open on the same
 * lane (thread); a call without one gets its parent from analysis/call_parent.h
 * (worker calls under the call that forked them, docs/parallel.md). The
 * walk streams: it keeps only the open calls, so it needs no memory per call.
 */
#ifndef SP_ANALYSIS_CALL_TREE_H
#define SP_ANALYSIS_CALL_TREE_H

#include "analysis/tree_frame.h"
#include "model/event_window.h"

typedef struct sp_tree_visitor {
    /* A call starts; parent is the enclosing call (NULL for a root), which the
     * visitor may update. A non-OK status stops the walk. */
    sp_status (*enter)(void *ctx, sp_tree_frame *call, sp_tree_frame *parent);
    /* A call and all its descendants are done (optional). */
    void (*leave)(void *ctx, const sp_tree_frame *call);
    void *ctx;
} sp_tree_visitor;

/* Nonzero when parent is on the call's own thread: only those parents lose
 * the child's time from their exclusive time. */
static inline int sp_tree_same_lane(const sp_tree_frame *call, const sp_tree_frame *parent) {
    return parent && parent->lane == call->lane;
}

/* Walks the calls of rows[0..n), all of one rank. Fails with SP_ERR_NESTING
 * (the §4.1 message) or SP_ERR_OUT_OF_MEMORY, or the visitor's status. */
sp_status sp_tree_walk(const sp_results *r, const uint32_t *rows, size_t n,
                       const sp_tree_visitor *visitor, sp_error *err);

/* The same over calls already in win (sp_rank_events, or a larger window). */
sp_status sp_tree_walk_window(const sp_results *r, const sp_event_window *win, const uint32_t *rows,
                              size_t n, const sp_tree_visitor *visitor, sp_error *err);

/* The calls of rows[0..n) (all of one rank, so one slice of the event
 * columns) in *win: the model's columns, or read from the file when the
 * results are streamed. */
sp_status sp_rank_events(const sp_results *r, const uint32_t *rows, size_t n, sp_event_window *win,
                         sp_error *err);

/* The rows of `rank` for the given regions (in that order), skipping regions
 * without an entry on that rank; returns the count written to out. */
size_t sp_rank_rows(const sp_results *r, uint32_t rank, const uint32_t *regions, size_t num_regions,
                    uint32_t *out);

#endif
