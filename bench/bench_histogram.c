/*
 * bench_histogram: the cost of sp_hist_add (src/model/histogram.h), the
 * operation an aggregate-mode recorder does once per call, and of merging.
 * Values: 1 M lognormal durations (median 100 us) added over and over.
 * Times are process CPU time (the machine may be shared).
 *   build/bench/bench_histogram [adds]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "model/histogram.h"

#define POOL (1u << 20)

/* CPU time of the process: the machine may be shared, wall time is not the cost. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    long adds = argc > 1 ? atol(argv[1]) : 100000000;
    int64_t *v = malloc(POOL * sizeof *v);
    if (!v) return 1;
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < POOL; i++) { /* xorshift + Box-Muller */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double u1 = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double u2 = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
        v[i] = (int64_t)exp(log(1e5) + sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
    sp_hist h = SP_HIST_INIT;
    double t0 = cpu_s();
    for (long i = 0; i < adds; i++)
        if (sp_hist_add(&h, v[i & (POOL - 1)]) != SP_OK) return 1;
    double t = cpu_s() - t0;
    int64_t sink = 0;
    t0 = cpu_s();
    for (long i = 0; i < adds; i++) /* the loop and the load alone */
        sink += v[i & (POOL - 1)];
    double t_loop = cpu_s() - t0;
    printf("sp_hist_add: %.2f ns per value (%ld values; the loop alone %.2f ns); "
           "%u buckets in the window = %zu bytes\n",
           1e9 * t / (double)adds, adds, 1e9 * t_loop / (double)adds, h.hi - h.lo,
           (size_t)(h.hi - h.lo) * sizeof(uint64_t) + sizeof h);
    sp_hist m = SP_HIST_INIT;
    t0 = cpu_s();
    for (int i = 0; i < 1000; i++)
        if (sp_hist_merge(&m, &h) != SP_OK) return 1;
    printf("sp_hist_merge: %.2f us per merge; p50 %.0f ns, p99 %.0f ns (sink %lld)\n",
           1e6 * (cpu_s() - t0) / 1000.0, sp_hist_percentile(&h, 50), sp_hist_percentile(&h, 99),
           (long long)(sink & 1));
    sp_hist_free(&h);
    sp_hist_free(&m);
    free(v);
    return 0;
}
