/*
 * The one rule that gives a call its parent (docs/parallel.md §1), asked by
 * the call-tree walk that every view is built on (tables, exclusive times,
 * plots, exports, the report):
 *
 *  1. the innermost call still open on the call's own thread; else
 *  2. for a thread with a recorded fork point (model.h sp_thread_fork) at or
 *     before the call's start, the innermost call of the forking thread that
 *     was open at the fork (started no later than fork_ns) and contains the
 *     call: worker calls under the call that forked the parallel region or
 *     created the thread, never under a later call of the forking thread; else
 *  3. for a thread with a recorded parent thread (files without fork points),
 *     the innermost call of that thread that contains the call, below the
 *     outermost of those of the call's own region (so that a worker's `body`
 *     never nests in the master's `body`: no invented recursion); else
 *  4. none: the call is a root.
 */
#ifndef SP_ANALYSIS_CALL_PARENT_H
#define SP_ANALYSIS_CALL_PARENT_H

#include "analysis/lanes.h"

typedef struct sp_parent_rule {
    const sp_model *m;
    uint32_t rank;
    int has_parents; /* the rank has fork points or parent threads */
} sp_parent_rule;

void sp_parent_rule_init(sp_parent_rule *rule, const sp_model *m, uint32_t rank);

/* The parent of f (rules 1-4), or NULL. *stack is f's lane stack with the
 * calls that ended before f popped; the lane table may grow here, so *stack
 * is looked up again (NULL when out of memory). */
sp_tree_frame *sp_call_parent(const sp_parent_rule *rule, sp_lanes *lanes, const sp_tree_frame *f,
                              sp_stack **stack);

#endif
