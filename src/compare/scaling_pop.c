/*
 * POP's computation scalability over a scaling study (docs/parallel.md
 * §6.4): the useful time (outside MPI calls) summed over ranks, U = ranks
 * × session time − time in the MPI_* regions of every rank, against the
 * smallest x. Strong scaling: U(x0) / U(x); weak: U(x0) · (x / x0) / U(x),
 * the work growing with x. Only for runs whose MPI calls were recorded (an
 * MPI_* region) and whose session time is known; otherwise left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_internal.h"

/* The run's useful time summed over ranks, NAN without MPI regions or times. */
static double useful_of(const sp_results *r) {
    double session = sp_results_total_time(r), mpi = 0;
    int any = 0;
    for (size_t i = 0; i < sp_results_num_regions(r); i++) {
        const sp_mpi_region *region = sp_results_region_at(r, i);
        if (strncmp(sp_mpi_region_name(region), "MPI_", 4) != 0) continue;
        mpi += sp_mpi_region_total_duration(region);
        any = 1;
    }
    if (!any || !isfinite(session)) return NAN;
    return (double)sp_results_num_data_ranks(r) * session - mpi;
}

void sp_scaling_computation(sp_scaling *s, const sp_results *const *runs, size_t n) {
    double *useful = calloc(s->num_x, sizeof *useful);
    double *scalability = calloc(s->num_x, sizeof *scalability);
    int ok = useful && scalability;
    for (size_t i = 0; ok && i < n; i++) {
        double u = useful_of(runs[i]);
        ok = u > 0;
        for (size_t k = 0; ok && k < s->num_x; k++)
            if (s->xs[k] == s->run_x[i]) useful[k] += u / s->runs_at_x[k];
    }
    if (!ok) {
        free(useful);
        free(scalability);
        return;
    }
    for (size_t k = 0; k < s->num_x; k++)
        scalability[k] = useful[0] * (s->weak ? s->xs[k] / s->xs[0] : 1.0) / useful[k];
    s->useful = useful;
    s->computation_scalability = scalability;
}
