/*
 * An MPI run in which rank 1 is killed (SIGKILL) after recording; mpirun
 * then ends the other ranks. Rank r records 1000 * (r + 1) calls of "work"
 * and writes that count to counts.R before the barrier.
 * Usage: mpirun -np 3 journal_kill OUTPUT.h5
 */
#include <mpi.h>
#include <scope_profiler_mpi.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "run.h5";
    if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) MPI_Abort(MPI_COMM_WORLD, 3);
    sp_region_t work = sp_region("work");
    int calls = 1000 * (rank + 1);
    for (int i = 0; i < calls; i++) {
        sp_begin(work);
        sp_end(work);
    }
    char name[64];
    snprintf(name, sizeof name, "counts.%d", rank);
    FILE *f = fopen(name, "w");
    if (f) {
        fprintf(f, "%d\n", calls);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) raise(SIGKILL);
    sleep(60); /* mpirun ends us when rank 1 is gone */
    MPI_Finalize();
    return 0;
}
