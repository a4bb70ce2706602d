/*
 * MPI_Init and MPI_Init_thread through the PMPI interface, in C and in
 * Open MPI's Fortran bindings (fortran_calls.c says why both), and the
 * Fortran MPI_Finalize: scope-profiler run's session starts when MPI is up
 * (sp_mpi_run_attach, a no-op unless the preload library asked for it) and
 * every program's profile is written before MPI goes down.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void sp_mpi_run_attach(void);
void sp_mpi_before_finalize(void);

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
