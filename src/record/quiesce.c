#include "record/quiesce.h"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/membarrier.h>
#endif

int sp_quiesce_self_fence = 1;
#ifdef __SANITIZE_THREAD__
int sp_quiesce_fence_word;
#endif
static pthread_once_t registered = PTHREAD_ONCE_INIT;
static int barrier_command;
static uint64_t dropped_racing;

static void register_membarrier(void) {
#if defined(__linux__) && defined(SYS_membarrier)
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
    if (commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0) {
        barrier_command = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
    } else if (commands > 0 && (commands & MEMBARRIER_CMD_GLOBAL)) {
        barrier_command = MEMBARRIER_CMD_GLOBAL;
    }
#endif
    __atomic_store_n(&sp_quiesce_self_fence, barrier_command == 0, __ATOMIC_RELAXED);
}

void sp_quiesce_prepare(void) {
    pthread_once(&registered, register_membarrier);
}

/* Every thread passes a full barrier: a busy mark it stored before is visible
 * now, or its next read of the flag (or of its inline word) sees what this
 * thread stored before. */
static void barrier_on_every_thread(void) {
    SP_FULL_FENCE();
#if defined(__linux__) && defined(SYS_membarrier)
    if (barrier_command) syscall(SYS_membarrier, barrier_command, 0);
#endif
}

/* Clears the inline word of every live thread (exited threads' words are gone). */
static void unpublish_all(sp_thread *head) {
    for (sp_thread *t = head; t; t = t->next)
        if (!t->exited) sp_thread_unpublish(t);
}

void sp_quiesce_wait(void) {
    sp_thread *head = sp_thread_list_locked();
    unpublish_all(head); /* the inline calls stop as soon as they see it */
    /* 1: the out-of-line calls, which read sp_internal_active_ (cleared by the
     * caller); a call that sets its thread's inline word does so in here */
    barrier_on_every_thread();
    for (sp_thread *t = head; t; t = t->next)
        while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE))
            sched_yield();
    /* 2: the inline calls, which read their thread's word: cleared now for good */
    unpublish_all(head);
    barrier_on_every_thread();
    for (sp_thread *t = head; t; t = t->next)
        while (!t->exited && t->tls && __atomic_load_n(&t->tls->busy, __ATOMIC_ACQUIRE))
            sched_yield();
    sp_thread_list_unlock();
}

void sp_quiesce_count_dropped(void) {
    __atomic_fetch_add(&dropped_racing, 1, __ATOMIC_RELAXED);
}

uint64_t sp_quiesce_take_dropped(void) {
    return __atomic_exchange_n(&dropped_racing, 0, __ATOMIC_RELAXED);
}
