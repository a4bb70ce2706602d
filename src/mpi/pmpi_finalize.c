/*
 * MPI_Finalize through the PMPI interface: a program that reaches
 * MPI_Finalize with profiling still active gets its profile written first,
 * while MPI still works.
 */
#include <mpi.h>

#include "mpi/mpi_calls.h"

int MPI_Finalize(void) {
    sp_mpi_before_finalize();
    return PMPI_Finalize();
}
