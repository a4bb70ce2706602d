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

void sp_quiesce_wait(void) {
    SP_FULL_FENCE();
#if defined(__linux__) && defined(SYS_membarrier)
    /* every thread passes a full barrier: its busy mark is visible now, or it
     * will see the cleared flag */
    if (barrier_command) syscall(SYS_membarrier, barrier_command, 0);
#endif
    for (sp_thread *t = sp_thread_list_locked(); t; t = t->next)
        while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE))
            sched_yield();
    sp_thread_list_unlock();
}

void sp_quiesce_count_dropped(void) {
    __atomic_fetch_add(&dropped_racing, 1, __ATOMIC_RELAXED);
}

uint64_t sp_quiesce_take_dropped(void) {
    return __atomic_exchange_n(&dropped_racing, 0, __ATOMIC_RELAXED);
}
