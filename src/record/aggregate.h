/*
 * Aggregate mode (docs/recording.md, "Aggregate mode"): no per-call events.
 * Each thread keeps one node per call path (a region under its enclosing
 * call path) with the count, total, minimum, maximum, sum of squares and a
 * duration histogram (model/histogram.h), so memory grows with the number of
 * call paths, never with the number of calls.
 *
 * The hot path stays the per-call one: in aggregate mode a thread has no
 * event cursors, so every sp_begin takes the slow path, which lands in
 * sp_agg_begin(). That finds the call path's node and hands the frame a
 * per-depth scratch slot; the unchanged sp_end stores the end ticks in it.
 * A completed call is folded into its node lazily, by the next begin at the
 * same depth (or at finalize), so sp_end costs what it costs per call.
 */
#ifndef SP_RECORD_AGGREGATE_H
#define SP_RECORD_AGGREGATE_H

#include <stdint.h>

#include "model/histogram.h"
#include "model/model.h"
#include "record/collect.h"
#include "record/config.h"
#include "record/thread_state.h"

/* Node 0 of every thread is the root (no region); SP_AGG_NONE is no node. */
#define SP_AGG_ROOT 0u
#define SP_AGG_NONE UINT32_MAX

typedef struct sp_agg_node {
    uint64_t count;
    uint64_t total;          /* ticks */
    uint64_t min, max;       /* ticks */
    unsigned __int128 sumsq; /* ticks squared */
    uint64_t first, last;    /* the first and the latest call's duration, ticks */
    uint64_t start_min;      /* the first call's start, ticks */
    uint64_t start_last; /* the latest call's start (it and `last` give the latest end), ticks */
    sp_hist hist;        /* bucket counts in ns, by the rate known during the run; its count, min
                            and max are set at finalize */
    uint32_t region;
    uint32_t parent;    /* node index; SP_AGG_ROOT for a top-level call */
    uint32_t next_hint; /* the sibling that began after this one last time, or SP_AGG_NONE */
    int hist_failed;    /* out of memory growing the histogram: it misses calls */
} sp_agg_node;

/* The open call at one depth, and the last completed one there until folded. */
typedef struct sp_agg_scratch {
    sp_event_slot slot; /* the frame's slot: start and end ticks */
    uint32_t node;      /* SP_AGG_NONE: nothing to fold */
} sp_agg_scratch;

/* A node whose children are a forked thread's top-level calls: they belong
 * under `from_node` of the forking thread `from` (docs/parallel.md §1). */
typedef struct sp_agg_anchor {
    const struct sp_agg_thread *from;
    uint32_t from_node; /* a node of `from`: its open call, or its own anchor */
    uint32_t node;      /* this thread's node (no region, under the root) */
} sp_agg_anchor;

typedef struct sp_agg_origin sp_agg_origin;

typedef struct sp_agg_thread {
    sp_thread *thread;
    uint32_t top;          /* where depth-0 calls hang: SP_AGG_ROOT, or the current anchor's node */
    uint32_t top_level;    /* the origin's level `top` stands for; >= levels: none chosen */
    sp_agg_origin *origin; /* the fork this thread runs for; NULL: none */
    sp_agg_anchor *anchors;
    uint32_t num_anchors, anchor_capacity;
    /* scratch arrays outgrown: kept until the session ends, so that a thread
     * this one forked may still read its open calls' slots */
    sp_agg_scratch *retired[32];
    uint32_t num_retired;
    sp_agg_scratch *scratch; /* indexed by depth */
    uint32_t scratch_capacity;
    uint32_t num_nodes, node_capacity;
    sp_agg_node *nodes;
    uint64_t *keys;   /* hash of (parent, region) -> node; 0 = empty */
    uint32_t *values; /* node index per key */
    uint32_t table_capacity, table_used;
    sp_event_slot discard; /* a frame whose call cannot be kept */
    struct sp_agg_thread *next;
} sp_agg_thread;

/* Nonzero while an aggregate session records (read by the slow path). */
extern int sp_agg_on;

/* sp_setup in aggregate mode: forgets the previous session's nodes, learns
 * the clock's rate for the histograms (a millisecond's wait with the TSC)
 * and turns the mode on; says so on stderr when a journal was asked for
 * (aggregate mode makes none). */
void sp_agg_session_start(const sp_config *cfg);

/* The slow path's begin in aggregate mode (the thread is inside its quiesce). */
void sp_agg_begin(sp_thread *t, sp_region_t region);

/* Folds the completed call in s into its node (record/aggregate_path.c). */
void sp_agg_fold(sp_agg_thread *a, sp_agg_scratch *s);

/* What a forking thread has open when a parallel region begins or a thread
 * is created (record/fork_point.c takes it): its innermost open calls with
 * their start ticks, so that a started thread's top-level call can hang under
 * the innermost of them still open when it begins (the per-call rule,
 * analysis/call_parent.c, asks the same of a call's whole span). */
#define SP_AGG_ORIGIN_LEVELS 16
typedef struct sp_agg_origin {
    const struct sp_agg_thread *thread; /* NULL: the started thread's calls stay roots */
    uint64_t generation;
    uint32_t levels; /* open calls noted, innermost first */
    uint32_t depth[SP_AGG_ORIGIN_LEVELS];
    uint32_t node[SP_AGG_ORIGIN_LEVELS];
    uint64_t start[SP_AGG_ORIGIN_LEVELS];
    uint32_t base; /* with every noted call ended: the forking thread's own anchor, or root */
} sp_agg_origin;

/* On the forking thread; o->thread NULL outside aggregate mode. */
void sp_agg_origin_take(sp_agg_origin *o);

/* On the started thread, before the user's function: its top-level calls
 * from now on hang under o (an anchor node made on first use). */
void sp_agg_origin_enter(sp_thread *t, const sp_agg_origin *o);

/* The anchor whose node is `node`, or NULL (record/aggregate_path.c). */
const sp_agg_anchor *sp_agg_anchor_of(const sp_agg_thread *a, uint32_t node);

/* The threads' states, for finalize (threads quiet). */
sp_agg_thread *sp_agg_threads(void);

/* A span of ticks in ns by the rate the histograms are filled with. */
int64_t sp_agg_provisional_ns(uint64_t ticks);

/* Finalize: folds what is pending and fills m in the aggregate layout (rank
 * `rank`): regions, one row per region with count, total, minimum, maximum,
 * exclusive total and summary statistics, the thread table and one
 * histogram per (thread, call path). */
sp_status sp_agg_collect(sp_model *m, uint32_t rank, sp_collect_report *report);

/* In a child after fork(): the parent's session is forgotten, so the mode
 * is off until the child's own sp_setup. */
void sp_agg_forget_after_fork(void);

/* Session end: frees every thread's nodes and turns the mode off. */
void sp_agg_reset_all(void);

/* Bytes the aggregate state holds now (nodes, tables, histogram windows). */
SP_INTERNAL_API uint64_t sp_internal_agg_bytes(void);

#endif
