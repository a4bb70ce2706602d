/*
 * Runs body(ctx, first, count) over [0, n) in blocks of `grain` indices
 * (the last may be shorter) on up to sp_worker_threads() threads, the
 * caller's among them; blocks are handed out one at a time, so bodies of
 * uneven cost balance themselves. A body must only write what its indices
 * own. There are at most half as many threads as blocks (a small n runs on
 * the caller's thread alone); a thread that cannot start leaves its blocks
 * to the others, so every index is visited exactly once in any case.
 */
#ifndef SP_COMMON_PARALLEL_FOR_H
#define SP_COMMON_PARALLEL_FOR_H

#include <stddef.h>

void sp_parallel_for(size_t n, size_t grain, void (*body)(void *ctx, size_t first, size_t count),
                     void *ctx);

/* Lowers *first to index if it is lower (atomically): the first failing
 * index, as a serial loop would stop at, from bodies that run in any order. */
static inline void sp_parallel_note_first(size_t *first, size_t index) {
    size_t seen = __atomic_load_n(first, __ATOMIC_RELAXED);
    while (index < seen &&
           !__atomic_compare_exchange_n(first, &seen, index, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

#endif
