/* The C side of the scope_profiler_mpi Fortran module: sp_mpi_setup with a
 * Fortran communicator handle (integer, or the MPI_VAL of a type(MPI_Comm)). */
#include <stdlib.h>

#include "scope_profiler_mpi.h"
#include "sp_fortran_options.h"

sp_status sp_f_mpi_setup(const sp_f_setup_args *args, MPI_Fint comm);

sp_status sp_f_mpi_setup(const sp_f_setup_args *args, MPI_Fint comm) {
    sp_options opt;
    char *file, *label;
    sp_status st = sp_f_options(args, &opt, &file, &label) ? sp_mpi_setup(&opt, MPI_Comm_f2c(comm))
                                                           : SP_ERR_OUT_OF_MEMORY;
    free(file);
    free(label);
    return st;
}
