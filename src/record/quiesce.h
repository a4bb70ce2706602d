/*
 * The session switch against threads that are still recording
 * (docs/robustness.md, "Threads and the session switch"). Every recording
 * call brackets its work on the thread's buffers with a busy mark, and
 * re-checks the active flag inside the bracket; finalize clears the flag,
 * forces a memory barrier on every thread (membarrier), then waits until no
 * thread is busy. After that no thread touches its buffers until the next
 * sp_setup, so they can be collected and freed. The hot path pays two plain
 * stores and one load, no atomic read-modify-write.
 */
#ifndef SP_RECORD_QUIESCE_H
#define SP_RECORD_QUIESCE_H

#include <stdint.h>

#include "record/thread_state.h"

extern int sp_internal_active_;

/* A full barrier (TSan does not model fences: a sequentially consistent
 * read-modify-write does the same there). */
#ifdef __SANITIZE_THREAD__
extern int sp_quiesce_fence_word;
#define SP_FULL_FENCE() ((void)__atomic_fetch_add(&sp_quiesce_fence_word, 0, __ATOMIC_SEQ_CST))
#else
#define SP_FULL_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
/* 1 when membarrier is not available: the hot path then fences itself. */
extern int sp_quiesce_self_fence;

/* Marks t busy and tells whether the session is (still) active; when it is
 * not, the caller must sp_quiesce_leave() and touch nothing. */
static inline int sp_quiesce_enter(sp_thread *t) {
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    if (__builtin_expect(sp_quiesce_self_fence, 0))
        SP_FULL_FENCE();
    else
        __asm__ __volatile__("" ::: "memory");
    return __atomic_load_n(&sp_internal_active_, __ATOMIC_ACQUIRE);
}

static inline void sp_quiesce_leave(sp_thread *t) {
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}

/* Called at sp_setup (registers for membarrier once). */
void sp_quiesce_prepare(void);

/* After the active flag was cleared: returns once no thread is inside a
 * recording call. */
void sp_quiesce_wait(void);

/* A call that began while finalize was stopping the session: dropped, counted. */
void sp_quiesce_count_dropped(void);
/* Returns the count since the last call and resets it. */
uint64_t sp_quiesce_take_dropped(void);

#endif
