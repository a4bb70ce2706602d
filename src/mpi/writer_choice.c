#include "mpi/writer_choice.h"

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static sp_mpi_writer option = SP_MPI_WRITER_AUTO;

void sp_mpi_writer_remember(const sp_options *options) {
    option = options ? options->mpi_writer : SP_MPI_WRITER_AUTO;
}

/* SCOPE_PROFILER_MPI_WRITER, or the option when it is unset or malformed. */
static sp_mpi_writer wanted(int rank) {
    const char *v = getenv("SCOPE_PROFILER_MPI_WRITER");
    if (!v || !*v) return option;
    if (strcasecmp(v, "auto") == 0) return SP_MPI_WRITER_AUTO;
    if (strcasecmp(v, "stream") == 0) return SP_MPI_WRITER_STREAM;
    if (strcasecmp(v, "parallel") == 0) return SP_MPI_WRITER_PARALLEL;
    if (rank == 0)
        fprintf(stderr,
                "scope-profiler: ignoring SCOPE_PROFILER_MPI_WRITER=\"%s\": expected auto, "
                "stream or parallel\n",
                v);
    return option;
}

typedef struct hdf5_scan {
    int count;
    char *names;
    size_t size;
} hdf5_scan;

/* libhdf5.so*, libhdf5_serial.so*, libhdf5_openmpi.so*, libhdf5_mpich.so*:
 * the C library of one HDF5 build (not its _hl, _cpp or Fortran layers). */
static int is_hdf5_core(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "libhdf5", 7) != 0) return 0;
    const char *rest = base + 7;
    if (*rest == '_') {
        rest++;
        while (*rest >= 'a' && *rest <= 'z')
            rest++;
        if (strncmp(base + 8, "hl", 2) == 0 || strncmp(base + 8, "cpp", 3) == 0 ||
            strncmp(base + 8, "fortran", 7) == 0)
            return 0;
    }
    return strncmp(rest, ".so", 3) == 0;
}

static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    hdf5_scan *s = data;
    if (!info->dlpi_name || !is_hdf5_core(info->dlpi_name)) return 0;
    if (s->names && s->size) {
        size_t used = strlen(s->names);
        snprintf(s->names + used, s->size - used, "%s%s", s->count ? ", " : "", info->dlpi_name);
    }
    s->count++;
    return 0;
}

int sp_mpi_loaded_hdf5_libraries(char *names, size_t size) {
    hdf5_scan s = {0, names, size};
    if (names && size) names[0] = '\0';
    dl_iterate_phdr(scan_object, &s);
    return s.count;
}

#ifdef SP_MPI_PARALLEL_WRITER
int sp_mpi_writer_auto(int64_t num_nodes, int compressed) {
    return compressed || num_nodes > 1;
}

/* This rank's verdict: 1 parallel, 0 stream; why not, in reason, and in
 * *explain whether that deserves a warning. */
static int can_write_parallel(sp_mpi_writer w, int auto_parallel, char *reason, size_t size,
                              int *explain) {
    *explain = 0;
    if (w == SP_MPI_WRITER_STREAM || (w == SP_MPI_WRITER_AUTO && !auto_parallel)) return 0;
    char names[1024];
    int loaded = sp_mpi_loaded_hdf5_libraries(names, sizeof names);
    if (loaded > 1) {
        snprintf(reason, size,
                 "%d HDF5 libraries are loaded in this process (%s), and serial and parallel "
                 "HDF5 must not write from one process; link the program and its libraries "
                 "against the parallel HDF5 that libscope_profiler_mpi_parallel uses",
                 loaded, names);
        *explain = 1; /* the default here is parallel: say why it is not */
        return 0;
    }
    return 1;
}
#else
static int can_write_parallel(sp_mpi_writer w, int auto_parallel, char *reason, size_t size,
                              int *explain) {
    (void)auto_parallel;
    *explain = w == SP_MPI_WRITER_PARALLEL; /* the default here is the stream writer */
    snprintf(reason, size,
             "this libscope_profiler_mpi is built against serial HDF5; link "
             "libscope_profiler_mpi_parallel instead (built when parallel HDF5, e.g. Debian's "
             "libhdf5-openmpi-dev, is installed)");
    return 0;
}
#endif

int sp_mpi_writer_parallel(MPI_Comm comm, int rank, int auto_parallel) {
    sp_mpi_writer w = wanted(rank);
    MPI_Bcast(&auto_parallel, 1, MPI_INT, 0, comm);
    char reason[1400] = "";
    int explain = 0, all = 0;
    int mine = can_write_parallel(w, auto_parallel, reason, sizeof reason, &explain);
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return 0;
    /* the first rank with something to explain does */
    int speaker = explain ? rank : INT_MAX, first = INT_MAX;
    MPI_Allreduce(&speaker, &first, 1, MPI_INT, MPI_MIN, comm);
    if (!all && rank == first)
        fprintf(stderr,
                "scope-profiler: rank %d: not using the parallel writer: %s; writing through "
                "rank 0 (the stream writer) instead\n",
                rank, reason);
    return all;
}
