#include "analysis/lanes.h"

#include <stdlib.h>
#include <string.h>

enum { LANES_INITIAL = 8 };

static sp_status lanes_alloc(sp_lanes *l, size_t cap) {
    l->keys = calloc(cap, sizeof *l->keys);
    l->used = calloc(cap, sizeof *l->used);
    l->stacks = calloc(cap, sizeof *l->stacks);
    l->cap = cap;
    l->count = 0;
    l->last = 0;
    return l->keys && l->used && l->stacks ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_status sp_lanes_init(sp_lanes *l) {
    memset(l, 0, sizeof *l);
    return lanes_alloc(l, LANES_INITIAL);
}

void sp_lanes_free(sp_lanes *l) {
    for (size_t i = 0; l->stacks && i < l->cap; i++)
        free(l->stacks[i].frames);
    free(l->keys);
    free(l->used);
    free(l->stacks);
    memset(l, 0, sizeof *l);
}

static size_t slot_of(const sp_lanes *l, int64_t id) {
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 32) & (l->cap - 1);
    while (l->used[i] && l->keys[i] != id)
        i = (i + 1) & (l->cap - 1);
    return i;
}

static sp_status grow(sp_lanes *l) {
    sp_lanes old = *l;
    if (lanes_alloc(l, old.cap * 2) != SP_OK) {
        free(l->keys);
        free(l->used);
        free(l->stacks);
        *l = old;
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.used[i]) continue;
        size_t j = slot_of(l, old.keys[i]);
        l->used[j] = 1;
        l->keys[j] = old.keys[i];
        l->stacks[j] = old.stacks[i];
        l->count++;
    }
    free(old.keys);
    free(old.used);
    free(old.stacks);
    return SP_OK;
}

sp_stack *sp_lanes_find(sp_lanes *l, int64_t id) {
    size_t i = slot_of(l, id);
    if (!l->used[i]) {
        if (2 * (l->count + 1) > l->cap) {
            if (grow(l) != SP_OK) return NULL;
            i = slot_of(l, id);
        }
        l->used[i] = 1;
        l->keys[i] = id;
        l->count++;
    }
    l->last = i;
    return &l->stacks[i];
}

sp_status sp_stack_grow(sp_stack *s) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    sp_tree_frame *grown = realloc(s->frames, cap * sizeof *grown);
    if (!grown) return SP_ERR_OUT_OF_MEMORY;
    s->frames = grown;
    s->cap = cap;
    return SP_OK;
}

void sp_lanes_drain(sp_lanes *l, void (*leave)(void *ctx, const sp_tree_frame *f), void *ctx) {
    for (size_t i = 0; i < l->cap; i++)
        while (l->used[i] && l->stacks[i].len)
            leave(ctx, &l->stacks[i].frames[--l->stacks[i].len]);
}
