/* Open-call stacks per lane (thread id; -1 for unknown), found by hashing. */
#ifndef SP_ANALYSIS_LANES_H
#define SP_ANALYSIS_LANES_H

#include "analysis/tree_frame.h"

typedef struct sp_stack {
    sp_tree_frame *frames;
    size_t len, cap;
    int parent_known;    /* parent_lane and the fork points looked up */
    int64_t parent_lane; /* the recorded parent thread, -1 none */
    size_t fork_pos;     /* the lane's current fork point (index into the model's forks) */
    size_t fork_end;     /* end of the lane's fork points; fork_pos == fork_end: none */
} sp_stack;

typedef struct sp_lanes {
    int64_t *keys;
    uint8_t *used;
    sp_stack *stacks;
    size_t cap, count; /* cap is a power of two */
    size_t last;       /* slot of the last lane looked up (most calls repeat it) */
} sp_lanes;

sp_status sp_lanes_init(sp_lanes *l);
void sp_lanes_free(sp_lanes *l);

/* The stack of lane `id`, created empty on first use; NULL when out of memory. */
sp_stack *sp_lanes_find(sp_lanes *l, int64_t id);

static inline sp_stack *sp_lanes_get(sp_lanes *l, int64_t id) {
    if (l->used[l->last] && l->keys[l->last] == id) return &l->stacks[l->last];
    return sp_lanes_find(l, id);
}

sp_status sp_stack_grow(sp_stack *s);

static inline sp_status sp_stack_push(sp_stack *s, const sp_tree_frame *f) {
    if (s->len == s->cap && sp_stack_grow(s) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
    s->frames[s->len++] = *f;
    return SP_OK;
}

/* Pops every open call of every lane, innermost first, calling leave on each. */
void sp_lanes_drain(sp_lanes *l, void (*leave)(void *ctx, const sp_tree_frame *f), void *ctx);

#endif
