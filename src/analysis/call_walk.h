/*
 * Every call of one rank with its depth in the call tree, in tree order
 * (start ascending, end descending): what flame charts and trace-like views
 * draw. The walk streams (memory for the open calls only).
 */
#ifndef SP_ANALYSIS_CALL_WALK_H
#define SP_ANALYSIS_CALL_WALK_H

#include <stdint.h>

#include "scope_profiler/results.h"

typedef struct sp_call_visit {
    uint32_t region;  /* index in file order (sp_results_region_name) */
    int64_t thread;   /* thread id, -1 when the file has none */
    int64_t start_ns; /* on the file's clock */
    int64_t end_ns;
    uint32_t depth; /* 0 for a call without an enclosing call on its thread */
} sp_call_visit;

/* Returns SP_OK to go on; anything else stops the walk and is returned. */
typedef sp_status (*sp_call_fn)(void *ctx, const sp_call_visit *call);

/* Walks all calls of `rank` (all regions). SP_ERR_NESTING when calls overlap
 * without nesting, SP_ERR_UNAVAILABLE for aggregate-layout files. */
sp_status sp_walk_rank_calls(const sp_results *results, uint32_t rank, sp_call_fn fn, void *ctx,
                             sp_error *err);

#endif
