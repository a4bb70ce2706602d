#include "mpi/deadline.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEFAULT_TIMEOUT_S 600.0

double sp_mpi_timeout_seconds(void) {
    const char *v = getenv("SCOPE_PROFILER_MPI_TIMEOUT");
    if (!v || !*v) return DEFAULT_TIMEOUT_S;
    char *end;
    double t = strtod(v, &end);
    if (*end || t < 0) {
        fprintf(stderr,
                "scope-profiler: ignoring SCOPE_PROFILER_MPI_TIMEOUT=\"%s\": expected seconds "
                "(0 = no limit)\n",
                v);
        return DEFAULT_TIMEOUT_S;
    }
    return t;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sp_mpi_wait_deadline(MPI_Request *req, double timeout_s) {
    if (timeout_s <= 0) return MPI_Wait(req, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    double start = now_s();
    /* Spin briefly (ranks usually arrive together), then poll gently. */
    const struct timespec pause = {0, 200000};
    for (long polls = 0;; polls++) {
        int done = 0;
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return 0;
        if (done) return 1;
        if (now_s() - start > timeout_s) return 0;
        if (polls > 1000) nanosleep(&pause, NULL);
    }
}
