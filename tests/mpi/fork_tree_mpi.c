/*
 * MPI + OpenMP reproducer for docs/parallel.md §1 (run by
 * tests/threads/check_fork_tree.py under mpirun -np 2, through each MPI
 * writer): on every rank, three steps fork a team of 2 threads; the master's
 * `lead` starts before the worker's calls and outlasts them. Only the fork
 * points tell that the worker's `body` and `wait` belong under `step`, not
 * under the `lead` open on the master (the fallback rule without them,
 * docs/parallel.md §1, rule 3), so the file must hold every rank's.
 *   fork_tree_mpi FILE
 */
#include <mpi.h>
#include <omp.h>
#include <stdatomic.h>
#include <time.h>

#include <scope_profiler_mpi.h>

static void work_us(long us) {
    struct timespec ts = {0, us * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "fork_tree_mpi.h5";
    if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int s = 0; s < 3; s++) {
        SP_REGION("step") {
            atomic_int master_in = 0;
#pragma omp parallel num_threads(2)
            {
                if (omp_get_thread_num() == 0) {
                    SP_REGION("lead") {
                        atomic_store(&master_in, 1);
                        work_us(20000);
                    }
                } else {
                    while (!atomic_load(&master_in)) {
                    }
                    SP_REGION("body") {
                        SP_REGION("compute") {
                            work_us(2000);
                        }
                    }
                    SP_REGION("wait") {
                        work_us(1000);
                    }
                }
            }
        }
    }
    sp_finalize_options quiet = SP_FINALIZE_OPTIONS_INIT;
    quiet.quiet = 1;
    int rc = sp_finalize(&quiet) == SP_OK ? 0 : 1;
    MPI_Finalize();
    return rc;
}
