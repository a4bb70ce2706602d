#include "common/worker_threads.h"

#include <stdlib.h>
#include <unistd.h>

static int caller_only;

void sp_worker_threads_caller_only(void) {
    __atomic_store_n(&caller_only, 1, __ATOMIC_RELAXED);
}

int sp_worker_threads_may_start(void) {
    return !__atomic_load_n(&caller_only, __ATOMIC_RELAXED);
}

int sp_worker_threads(void) {
    if (!sp_worker_threads_may_start()) return 1;
    const char *env = getenv("SCOPE_PROFILER_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 1)
            return v > SP_MAX_WORKER_THREADS ? SP_MAX_WORKER_THREADS : (int)v;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > SP_MAX_WORKER_THREADS ? SP_MAX_WORKER_THREADS : (int)cpus;
}
