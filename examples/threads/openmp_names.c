/*
 * openmp_names: an OpenMP parallel loop whose threads name themselves
 * ("omp 0", "omp 1", ...) before recording, so the profile's thread table
 * and `scope-profiler inspect` show which lane is which OpenMP thread.
 *     OMP_NUM_THREADS=2 openmp_names [file.h5]
 */
#include <omp.h>
#include <scope_profiler.h>
#include <stdio.h>

enum { ITERATIONS = 64 };

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "profiling_data.h5";
    opt.label = "openmp names";
    if (sp_setup(&opt) != SP_OK) return 1;
    double sum = 0.0;
#pragma omp parallel reduction(+ : sum)
    {
        char name[32];
        snprintf(name, sizeof name, "omp %d", omp_get_thread_num());
        sp_set_thread_name(name);
#pragma omp for schedule(static)
        for (int i = 0; i < ITERATIONS; i++)
            SP_REGION("iteration") {
                for (int k = 0; k < 20000; k++)
                    sum += 1e-9 * k;
            }
    }
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = argc > 2;
    return sp_finalize(&fo) != SP_OK || sum < 0.0;
}
