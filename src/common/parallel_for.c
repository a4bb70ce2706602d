#include "common/parallel_for.h"

#include <pthread.h>

#include "common/worker_threads.h"

typedef struct job {
    size_t next, n, grain;
    void (*body)(void *ctx, size_t first, size_t count);
    void *ctx;
} job;

static void *run(void *arg) {
    job *j = arg;
    for (;;) {
        size_t first = __atomic_fetch_add(&j->next, j->grain, __ATOMIC_RELAXED);
        if (first >= j->n) break;
        size_t count = j->n - first < j->grain ? j->n - first : j->grain;
        j->body(j->ctx, first, count);
    }
    return NULL;
}

void sp_parallel_for(size_t n, size_t grain, void (*body)(void *ctx, size_t first, size_t count),
                     void *ctx) {
    if (grain == 0) grain = 1;
    job j = {0, n, grain, body, ctx};
    size_t blocks = n / grain + (n % grain != 0);
    size_t threads = (size_t)sp_worker_threads();
    if (threads > blocks / 2) threads = blocks / 2;
    if (threads < 1) threads = 1;
    pthread_t ids[SP_MAX_WORKER_THREADS];
    int started[SP_MAX_WORKER_THREADS] = {0};
    for (size_t t = 1; t < threads; t++)
        started[t] = pthread_create(&ids[t], NULL, run, &j) == 0;
    run(&j);
    for (size_t t = 1; t < threads; t++)
        if (started[t]) pthread_join(ids[t], NULL);
}
