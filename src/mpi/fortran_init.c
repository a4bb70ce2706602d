/*
 * MPI_Init, MPI_Init_thread and MPI_Finalize of Open MPI's Fortran bindings
 * (mpif.h / use mpi, and mpi_f08), which call PMPI_Init and PMPI_Finalize
 * directly, past the C wrappers: scope-profiler run's session starts when
 * MPI is up, and the profile is written before MPI goes down. Part of
 * libscope_profiler_preload_fortran (see fortran_calls.c for why that is
 * preloaded, never linked).
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/mpi_calls.h"

static void *fortran_entry(const char *name) {
    void *p = dlsym(RTLD_DEFAULT, name);
    if (!p) {
        fprintf(stderr, "scope-profiler: %s is missing from this process's MPI Fortran library\n",
                name);
        abort();
    }
    return p;
}

#define SP_FORTRAN_INIT(sym, pmpi, params, args, ierr)                                             \
    __attribute__((visibility("default"))) void sym params;                                        \
    void sym params {                                                                              \
        void(*real) params;                                                                        \
        *(void **)&real = fortran_entry(pmpi);                                                     \
        real args;                                                                                 \
        if (!(ierr) || *(ierr) == MPI_SUCCESS) sp_mpi_run_attach();                                \
    }

#define SP_FORTRAN_FINALIZE(sym, pmpi)                                                             \
    __attribute__((visibility("default"))) void sym(MPI_Fint *ierr);                               \
    void sym(MPI_Fint *ierr) {                                                                     \
        void (*real)(MPI_Fint *);                                                                  \
        *(void **)&real = fortran_entry(pmpi);                                                     \
        sp_mpi_before_finalize();                                                                  \
        real(ierr);                                                                                \
    }

SP_FORTRAN_INIT(mpi_init_, "pmpi_init_", (MPI_Fint * ierr), (ierr), ierr)
SP_FORTRAN_INIT(mpi_init_f08_, "pmpi_init_f08_", (MPI_Fint * ierr), (ierr), ierr)
SP_FORTRAN_INIT(mpi_init_thread_, "pmpi_init_thread_",
                (MPI_Fint * required, MPI_Fint *provided, MPI_Fint *ierr),
                (required, provided, ierr), ierr)
SP_FORTRAN_INIT(mpi_init_thread_f08_, "pmpi_init_thread_f08_",
                (MPI_Fint * required, MPI_Fint *provided, MPI_Fint *ierr),
                (required, provided, ierr), ierr)
SP_FORTRAN_FINALIZE(mpi_finalize_, "pmpi_finalize_")
SP_FORTRAN_FINALIZE(mpi_finalize_f08_, "pmpi_finalize_f08_")
