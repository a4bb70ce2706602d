/* A serial program linked with libscope_profiler_mpi, run without mpirun and
 * without MPI_Init: sp_finalize() must behave as in a serial program. */
#include <hdf5.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../support/h5_inspect.h"

int main(void) {
    char path[4096];
    const char *base = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/sp_mpi_serial_%ld.h5", base && *base ? base : "/tmp",
             (long)getpid());
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    if (sp_setup(&opt) != SP_OK) return 1;
    for (int i = 0; i < 3; i++)
        SP_REGION("serial") {}
    sp_finalize_options quiet = {.quiet = 1};
    if (sp_finalize(&quiet) != SP_OK) return 1;
    if (sp_mpi_rank() != 0) return 1;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    size_t n;
    int64_t *counts = h5i_read_int64(f, "/rank_region_index/event_counts", &n);
    /* the session root (one call) and "serial" */
    int ok = f >= 0 && n == 2 && counts[0] == 1 && counts[1] == 3;
    free(counts);
    H5Fclose(f);
    unlink(path);
    printf("serial program with the MPI library: %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}
