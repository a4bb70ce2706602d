/*
 * The POP efficiencies (docs/parallel.md §6.4) from each rank's useful time
 * (outside MPI calls), the runtime and the runtime on an ideal network.
 */
#include "waits/waits.h"

sp_pop sp_pop_from_sums(double useful_sum, double max, uint32_t num_ranks, int64_t runtime_ns,
                        int64_t ideal_runtime_ns) {
    sp_pop p = {0};
    p.runtime_ns = runtime_ns;
    p.ideal_runtime_ns = ideal_runtime_ns;
    if (!num_ranks || runtime_ns <= 0) return p;
    p.average_useful_ns = useful_sum / num_ranks;
    p.max_useful_ns = max;
    p.load_balance = max > 0 ? p.average_useful_ns / max : 1;
    p.communication = max / (double)runtime_ns;
    /* the ideal network cannot be slower than the useful work nor than the real run */
    double ideal = (double)ideal_runtime_ns;
    if (ideal < max) ideal = max;
    if (ideal > (double)runtime_ns) ideal = (double)runtime_ns;
    p.serialisation = ideal > 0 ? max / ideal : 1;
    p.transfer = ideal / (double)runtime_ns;
    p.parallel = p.load_balance * p.communication;
    return p;
}

sp_pop sp_pop_compute(const int64_t *useful_ns, uint32_t num_ranks, int64_t runtime_ns,
                      int64_t ideal_runtime_ns) {
    double sum = 0, max = 0;
    for (uint32_t r = 0; r < num_ranks; r++) {
        sum += (double)useful_ns[r];
        if ((double)useful_ns[r] > max) max = (double)useful_ns[r];
    }
    return sp_pop_from_sums(sum, max, num_ranks, runtime_ns, ideal_runtime_ns);
}
