/*
 * MPI_Init and MPI_Init_thread through the PMPI interface: scope-profiler
 * run's session starts when MPI is up (sp_mpi_run_attach, a no-op unless the
 * preload library asked for it). The Fortran ones are in fortran_init.c.
 */
#include <mpi.h>

#include "mpi/mpi_calls.h"

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) sp_mpi_run_attach();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) sp_mpi_run_attach();
    return rc;
}
