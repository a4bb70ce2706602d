/*
 * The end-of-run summary of an MPI run (check_summary.py reads what rank 0
 * prints at sp_finalize): calls that do not depend on timing, and a rank
 * imbalance that does not either in sign. Rank r runs "setup" once, STEPS x
 * "step" holding "work", which waits (r + 1) x 10 ms, so the last rank is the
 * slowest in work and step; rank 0 alone runs "report" once.
 *
 *   summary_program FILE.h5
 */
#include <mpi.h>
#include <scope_profiler.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>

#include "mpi_test_support.h"

enum { STEPS = 5 };
#define MS 1000000LL

int main(int argc, char **argv) {
    (void)failures; /* the shared header's counter: this program checks nothing itself */
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "summary.h5";
    if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) {
        fprintf(stderr, "rank %d: sp_mpi_setup failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    SP_REGION("setup") {
        busy_wait(1 * MS);
    }
    for (int s = 0; s < STEPS; s++)
        SP_REGION("step") {
            SP_REGION("work") {
                busy_wait((rank + 1) * 10 * MS);
            }
        }
    if (rank == 0) SP_REGION("report") {
            busy_wait(1 * MS);
        }
    fflush(stdout);
    sp_status st = sp_finalize(NULL); /* rank 0 prints the summary */
    fflush(stdout);
    MPI_Finalize();
    return st == SP_OK ? 0 : 1;
}
