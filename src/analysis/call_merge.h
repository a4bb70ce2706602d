/*
 * The calls of a rank's rows in tree order (start ascending, end
 * descending, ties in the order of the given rows): a k-way merge of the
 * rows, each already in that order or sorted into it once. The call tree
 * (call_tree.c) visits what it gives; merge_pipe.h runs it on a second
 * thread ahead of the visits.
 */
#ifndef SP_ANALYSIS_CALL_MERGE_H
#define SP_ANALYSIS_CALL_MERGE_H

#include "analysis/internal.h"
#include "model/event_window.h"

typedef struct sp_merged_call {
    int64_t start, end;
    uint64_t event;             /* index into the model's event columns */
    int64_t lane;               /* thread id of the call, -1 unknown */
    uint32_t row;               /* model row */
    uint32_t ends_before_start; /* a negative duration: damage the walk reports */
} sp_merged_call;

typedef struct sp_merge_cursor sp_merge_cursor;
typedef struct sp_merge_head sp_merge_head;

typedef struct sp_call_merge {
    /* the window that holds the calls of every row merged, copied: the
     * merge may run on a thread of its own (merge_pipe.h) */
    const int64_t *starts, *durations, *thread_ids;
    uint64_t first;
    sp_merge_cursor *cursors; /* the rows with calls, in row order */
    size_t num_slots;         /* rows with calls: the merge's leaves */
    sp_merge_head *heads;     /* per slot: its next call */
    uint32_t *tree;           /* the loser tree over the slots */
    size_t live;              /* slots not yet exhausted */
    uint64_t num_calls;       /* over all rows */
} sp_call_merge;

/* Prepares the merge of rows[0..n) of r, whose calls win holds.
 * SP_ERR_OUT_OF_MEMORY on failure (then sp_call_merge_free still applies). */
sp_status sp_call_merge_init(sp_call_merge *m, const sp_results *r, const sp_event_window *win,
                             const uint32_t *rows, size_t n);

/* Writes the next calls in tree order to out (at most max); 0 at the end. */
size_t sp_call_merge_next(sp_call_merge *m, sp_merged_call *out, size_t max);

void sp_call_merge_free(sp_call_merge *m);

#endif
