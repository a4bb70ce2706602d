/*
 * Walking the selected calls of a profile, one rank at a time, in call-tree
 * order (start ascending, longer first), with their whole call paths: the
 * helper every trace export (and any other per-call writer) builds on.
 *
 *   sp_call_walker *w = sp_call_walker_open(results, &selection, &err);
 *   for (size_t i = 0; i < sp_call_walker_num_ranks(w); i++)
 *       sp_call_walker_run(w, sp_call_walker_rank(w, i), SP_WALK_ALL_LANES, &visitor, &err);
 *   sp_call_walker_close(w);
 *
 * enter() sees a call after its parent, leave() after all its children on
 * its own thread (calls of different threads of one rank interleave). A
 * call's parent is the one analysis/call_parent.h gives: the enclosing call
 * on its own thread, or for a thread's top-level call the other thread's call
 * that forked it (cross_lane; leave() then gets NULL: the time stays on the
 * thread, and the parent may have left already). A call enters when it is selected or an ancestor of a
 * selected call (selected = 0). Memory: the open calls of one rank, plus the
 * tree walk's order of rows not recorded in start order.
 */
#ifndef SP_EXPORT_CALL_WALK_H
#define SP_EXPORT_CALL_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "scope_profiler/export.h"

typedef struct sp_walk_call {
    uint32_t region;  /* index into the region table */
    const char *name; /* the region's name */
    uint32_t rank;
    int64_t thread;      /* the call's thread id (0 without thread ids, -1 unknown) */
    size_t lane;         /* index of (rank, thread) in sp_call_walker_lane() */
    uint32_t row;        /* model row ((rank, region) pair) */
    uint64_t event;      /* index into the model's event columns */
    uint64_t call_index; /* position within its (rank, region) calls */
    int64_t start_ns;    /* absolute ns: aligned to rank 0's clock unless raw_clock */
    int64_t end_ns;
    uint32_t depth;    /* 0 for a call without parent */
    int64_t call_id;   /* the file's call id, else numbered per rank in tree order */
    int64_t parent_id; /* -1 for a root */
    int selected;      /* 0: written only as an ancestor of a selected call */
    int cross_lane;    /* the parent is another thread's call (docs/parallel.md §1) */
    size_t pos;        /* index among its thread's open calls (for sp_call_walker_parent) */
    uint64_t user[2];  /* free for the visitor; kept until leave() */
} sp_walk_call;

typedef struct sp_walk_visitor {
    /* parent is the enclosing call (NULL at the top); the visitor may change
     * the user fields of both. A non-OK status stops the walk. */
    sp_status (*enter)(void *ctx, sp_walk_call *call, sp_walk_call *parent);
    sp_status (*leave)(void *ctx, sp_walk_call *call, sp_walk_call *parent);
    void *ctx;
} sp_walk_visitor;

/* One (rank, thread) lane with calls on a selected rank and thread. */
typedef struct sp_walk_lane {
    uint32_t rank;
    int64_t thread;
    const char *name;  /* the thread table's name, "" when none */
    int64_t native_id; /* -1 when unknown */
    int only_lane;     /* the rank has no other lane */
    const sp_thread_info *info; /* its /thread_table row, NULL when none */
} sp_walk_lane;

typedef struct sp_call_walker sp_call_walker;

#define SP_WALK_ALL_LANES ((size_t)-1)

/* Compiles the selection and counts the selected calls (one pass over the
 * events; a few more with max_events). NULL with err set on a bad pattern,
 * an aggregate-layout file or out of memory. */
sp_call_walker *sp_call_walker_open(const sp_results *r, const sp_call_selection *selection,
                                    sp_error *err);
void sp_call_walker_close(sp_call_walker *w);

/* The selected ranks with calls, ascending. */
size_t sp_call_walker_num_ranks(const sp_call_walker *w);
uint32_t sp_call_walker_rank(const sp_call_walker *w, size_t index);

/* Lanes of the selected ranks and threads, by rank then thread. */
size_t sp_call_walker_num_lanes(const sp_call_walker *w);
const sp_walk_lane *sp_call_walker_lane(const sp_call_walker *w, size_t index);

/* Calls that pass the selection (ancestors written as context not counted). */
uint64_t sp_call_walker_selected(const sp_call_walker *w);
/* Selected calls per region (array of sp_results_num_regions() counts). */
const uint64_t *sp_call_walker_region_counts(const sp_call_walker *w);

/* The largest selected duration, and the latest selected end relative to the
 * run's time origin (ns; for size estimates). */
int64_t sp_call_walker_max_duration_ns(const sp_call_walker *w);
int64_t sp_call_walker_max_offset_ns(const sp_call_walker *w);

/* The parent of an open call (during enter/leave callbacks), or NULL. */
const sp_walk_call *sp_call_walker_parent(const sp_call_walker *w, const sp_walk_call *call);

/* Walks one rank: every lane, or only lane `lane` (an index of
 * sp_call_walker_lane()). SP_ERR_NESTING when calls of one thread overlap. */
sp_status sp_call_walker_run(sp_call_walker *w, uint32_t rank, size_t lane,
                             const sp_walk_visitor *visitor, sp_error *err);

#endif
