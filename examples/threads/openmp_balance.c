/*
 * openmp_balance: five time steps, each forking 4 OpenMP threads that do
 * 1x, 2x, 3x and 4x the work. The profile shows omp_body under step (not as
 * a separate top-level row), and the balance API names the slow thread
 * (docs/parallel.md): thread imbalance about 60 %, load balance about 62.5 %.
 *     openmp_balance [file.h5]
 */
#include <omp.h>
#include <scope_profiler.h>
#include <scope_profiler/balance.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <time.h>

enum { STEPS = 5, THREADS = 4 };

static void work(int units) {
    struct timespec ts = {0, 10000000L * units}; /* 10 ms per unit */
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "profiling_data.h5";
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.label = "openmp balance";
    if (sp_setup(&opt) != SP_OK) return 1;
    for (int s = 0; s < STEPS; s++)
        SP_REGION("step") {
#pragma omp parallel num_threads(THREADS)
            SP_REGION("omp_body") {
                work(omp_get_thread_num() + 1);
            }
        }
    if (sp_finalize(NULL) != SP_OK) return 1; /* prints the table: omp_body under step */

    sp_error err;
    sp_results *r = sp_read(path, &err);
    if (!r) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    sp_balance ranks, threads;
    if (sp_results_path_balance(r, "scope_profiler.session > step > omp_body", &ranks, &threads,
                                &err) != SP_OK) {
        fprintf(stderr, "%s\n", err.message);
        sp_results_free(r);
        return 2;
    }
    printf("step > omp_body on %zu threads: imbalance %.1f%%, load balance %.1f%%, "
           "slowest thread %lld (%.3f s), fastest %lld (%.3f s)\n",
           threads.count, 100.0 * threads.imbalance, 100.0 * threads.load_balance,
           (long long)threads.slowest_thread, threads.max, (long long)threads.fastest_thread,
           threads.min);
    sp_results_free(r);
    return 0;
}
