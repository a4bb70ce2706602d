#include "analysis/merge_pipe.h"

#include <stdlib.h>
#include <string.h>

#include "common/worker_threads.h"

/* sp_call_merge rounded up to whole cache lines */
#define MERGE_ALIGN 64u
#define MERGE_BYTES ((sizeof(sp_call_merge) + MERGE_ALIGN - 1) / MERGE_ALIGN * MERGE_ALIGN)

static uint64_t min_calls(void) {
    const char *env = getenv("SCOPE_PROFILER_PIPE_MIN_CALLS");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0') return (uint64_t)v;
    }
    return SP_MERGE_PIPE_MIN_CALLS;
}

static void *produce(void *arg) {
    sp_merge_pipe *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->produced - p->released >= SP_MERGE_PIPE_SLOTS && !p->stop)
            pthread_cond_wait(&p->emptied, &p->lock);
        if (p->stop) break;
        size_t slot = (size_t)(p->produced % SP_MERGE_PIPE_SLOTS);
        pthread_mutex_unlock(&p->lock);
        /* the slot is neither held nor waiting to be taken: no lock needed */
        size_t n = sp_call_merge_next(p->work, p->slots + slot * p->batch, p->batch);
        pthread_mutex_lock(&p->lock);
        p->count[slot] = n;
        p->produced++;
        pthread_cond_signal(&p->filled);
        if (n == 0) break;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int start_thread(sp_merge_pipe *p) {
    if (pthread_mutex_init(&p->lock, NULL)) return 0;
    if (pthread_cond_init(&p->filled, NULL)) {
        pthread_mutex_destroy(&p->lock);
        return 0;
    }
    if (pthread_cond_init(&p->emptied, NULL)) {
        pthread_cond_destroy(&p->filled);
        pthread_mutex_destroy(&p->lock);
        return 0;
    }
    if (pthread_create(&p->thread, NULL, produce, p) == 0) return 1;
    pthread_cond_destroy(&p->emptied);
    pthread_cond_destroy(&p->filled);
    pthread_mutex_destroy(&p->lock);
    return 0;
}

sp_status sp_merge_pipe_open(sp_merge_pipe *p, sp_call_merge *m, size_t batch) {
    memset(p, 0, sizeof *p);
    p->merge = m;
    p->batch = batch ? batch : SP_MERGE_PIPE_BATCH;
    int wanted = m->num_calls >= min_calls() && m->num_calls > 0 && sp_worker_threads() > 1;
    size_t slots = wanted ? SP_MERGE_PIPE_SLOTS : 1;
    p->slots = malloc(slots * p->batch * sizeof *p->slots);
    if (!p->slots && wanted) {
        wanted = 0;
        p->slots = malloc(p->batch * sizeof *p->slots);
    }
    if (!p->slots) return SP_ERR_OUT_OF_MEMORY;
    if (wanted) { /* the helper's own cache lines: the consumer's stack sits next to *m */
        p->work = aligned_alloc(MERGE_ALIGN, MERGE_BYTES);
        if (p->work) *p->work = *m;
    }
    p->threaded = p->work && start_thread(p);
    if (!p->threaded) {
        free(p->work);
        p->work = NULL;
    }
    return SP_OK;
}

size_t sp_merge_pipe_next(sp_merge_pipe *p, const sp_merged_call **calls) {
    *calls = p->slots;
    if (p->ended) return 0;
    if (!p->threaded) {
        return sp_call_merge_next(p->merge, p->slots, p->batch);
    }
    pthread_mutex_lock(&p->lock);
    if (p->holding) {
        p->released++;
        p->holding = 0;
        pthread_cond_signal(&p->emptied);
    }
    while (p->taken == p->produced)
        pthread_cond_wait(&p->filled, &p->lock);
    size_t slot = (size_t)(p->taken % SP_MERGE_PIPE_SLOTS);
    size_t n = p->count[slot];
    p->taken++;
    p->holding = n > 0;
    p->ended = n == 0;
    pthread_mutex_unlock(&p->lock);
    *calls = p->slots + slot * p->batch;
    return n;
}

void sp_merge_pipe_close(sp_merge_pipe *p) {
    if (p->threaded) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_signal(&p->emptied);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->thread, NULL);
        pthread_cond_destroy(&p->emptied);
        pthread_cond_destroy(&p->filled);
        pthread_mutex_destroy(&p->lock);
        *p->merge = *p->work;
        free(p->work);
    }
    free(p->slots);
    memset(p, 0, sizeof *p);
}
