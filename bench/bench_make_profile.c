/*
 * bench_make_profile: writes the synthetic multi-rank profile of
 * bench_big_profile.h (ranks x regions x calls per row, the default "auto"
 * compression) to a path and reads nothing back; bench_stream.sh times the
 * CLI on it.
 *   build/bench/bench_make_profile RANKS REGIONS CALLS_PER_ROW OUT.h5
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_big_profile.h"
#include "bench_support.h"

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: bench_make_profile RANKS REGIONS CALLS_PER_ROW OUT.h5\n");
        return 2;
    }
    uint32_t ranks = (uint32_t)atol(argv[1]), regions = (uint32_t)atol(argv[2]);
    uint64_t calls = (uint64_t)atoll(argv[3]);
    if (!ranks || !regions || !calls) {
        fprintf(stderr, "bench_make_profile: RANKS, REGIONS and CALLS_PER_ROW must be > 0\n");
        return 2;
    }
    double t0 = bench_now_s();
    bench_write_big_profile(argv[4], ranks, regions, calls);
    printf("%s: %u ranks x %u regions x %llu calls = %llu calls, written in %.1f s\n", argv[4],
           ranks, regions, (unsigned long long)calls,
           (unsigned long long)((uint64_t)ranks * regions * calls), bench_now_s() - t0);
    return 0;
}
