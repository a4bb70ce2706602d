/*
 * The session switch against threads that are still recording
 * (docs/robustness.md, "Threads and the session switch"). Two brackets, one
 * protocol (an asymmetric Dekker: the recording thread stores its busy mark,
 * then reads; finalize stores, forces a barrier on every thread with
 * membarrier, then reads the marks):
 * - out of line: t->busy, then sp_internal_active_ re-read inside it;
 * - inline (the public header): the thread's sp_internal_tls_v2_.busy, then
 *   its .hot pointer, which is the inline path's only flag (set only while
 *   the session records inline, record/thread_state.h).
 * sp_quiesce_wait (after the caller cleared sp_internal_active_): barrier,
 * wait for every t->busy (an out-of-line call, the only one that sets .hot,
 * finishes or sees the flag cleared); then clear every .hot, barrier, wait
 * for every inline busy. After that no thread touches its buffers until the
 * next sp_setup, so they can be collected and freed. The inline path pays
 * two plain stores to its own thread-local word, no fence, no atomic
 * read-modify-write, no shared cache line.
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
