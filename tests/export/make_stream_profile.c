/*
 * make_stream_profile RANKS REGIONS CALLS_PER_ROW OUT.h5: the benchmark's
 * synthetic profile (bench/bench_big_profile.h) for stream_cap.sh.
 */
#include <stdlib.h>

#include "bench_big_profile.h"

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    bench_write_big_profile(argv[4], (uint32_t)atol(argv[1]), (uint32_t)atol(argv[2]),
                            (uint64_t)atoll(argv[3]));
    return 0;
}
