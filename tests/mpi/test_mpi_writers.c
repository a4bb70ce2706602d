/*
 * The MPI finalize through each writer, end to end (sp_mpi_setup, regions,
 * sp_finalize), built twice: against libscope_profiler_mpi (serial HDF5,
 * the stream writer only) and libscope_profiler_mpi_parallel.
 *   test_mpi_writers EXPECTED [twolibs | option-stream | option-parallel]
 * EXPECTED is the writer the file must name in /metadata mpi_writer;
 * option-* set sp_options.mpi_writer (the environment overrides it). Rank r
 * calls "work" 3(r+1) times (the last rank never), "even" on even ranks.
 * The program first counts the HDF5 libraries loaded in the process itself
 * (one, always); with "twolibs" it then loads the other flavour of HDF5, so
 * that the library's guard must refuse the parallel writer.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <scope_profiler/results.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test_support.h"

static int count_hdf5(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, "libhdf5_serial.so", 17) == 0 || strncmp(base, "libhdf5_openmpi.so", 18) == 0)
        ++*(int *)data;
    return 0;
}

static int loaded_hdf5(void) {
    int n = 0;
    dl_iterate_phdr(count_hdf5, &n);
    return n;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *expected = argc > 1 ? argv[1] : "stream";
    int twolibs = argc > 2 && strcmp(argv[2], "twolibs") == 0;
    CHECK(loaded_hdf5() == 1, "rank %d: %d HDF5 libraries loaded at start", rank, loaded_hdf5());
    void *second = NULL;
    if (twolibs) {
        second = dlopen("libhdf5_serial.so.103", RTLD_NOW | RTLD_LOCAL);
        if (!second || loaded_hdf5() == 1)
            second = dlopen("libhdf5_openmpi.so.103", RTLD_NOW | RTLD_LOCAL);
        CHECK(second && loaded_hdf5() == 2, "rank %d: loading a second HDF5: %s", rank, dlerror());
    }
    char dir[] = "/tmp/sp_writers_XXXXXX", path[256] = "";
    if (rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/run.h5", dir);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    if (argc > 2 && strcmp(argv[2], "option-stream") == 0) opt.mpi_writer = SP_MPI_WRITER_STREAM;
    if (argc > 2 && strcmp(argv[2], "option-parallel") == 0)
        opt.mpi_writer = SP_MPI_WRITER_PARALLEL;
    CHECK(sp_mpi_setup(&opt, MPI_COMM_WORLD) == SP_OK, "setup");
    sp_region_t work = sp_region("work"), even = sp_region("even");
    for (int i = 0; rank != size - 1 && i < 3 * (rank + 1); i++) {
        sp_begin(work);
        sp_end(work);
    }
    if (rank % 2 == 0) {
        sp_begin(even);
        sp_end(even);
    }
    sp_results *results = NULL;
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = 1;
    fo.results = &results;
    CHECK(sp_finalize(&fo) == SP_OK, "finalize");
    if (rank == 0) {
        CHECK(results != NULL, "no results");
        sp_error err = {SP_OK, ""};
        const sp_mpi_region *w = results ? sp_results_get(results, "work", &err) : NULL;
        CHECK(w != NULL, "work: %s", err.message);
        for (int r = 0; w && r < size; r++) {
            const sp_rank_region *rr = sp_mpi_region_rank(w, (uint32_t)r, &err);
            uint64_t calls = rr ? sp_rank_region_num_calls(rr) : 0;
            CHECK(calls == (r == size - 1 ? 0u : 3u * (uint64_t)(r + 1)),
                  "rank %d: %llu calls of work", r, (unsigned long long)calls);
        }
        const sp_mpi_region *e = results ? sp_results_get(results, "even", &err) : NULL;
        CHECK(e && sp_mpi_region_num_calls(e) == (uint64_t)(size + 1) / 2, "even calls");
        sp_metadata_item item;
        int found = results && sp_results_metadata_find(results, "mpi_writer", &item);
        CHECK(found && item.string_value && strcmp(item.string_value, expected) == 0,
              "mpi_writer is %s, expected %s", found ? item.string_value : "(absent)", expected);
        if (found) printf("writer: %s\n", item.string_value);
        sp_results_free(results);
        remove(path);
        remove(dir);
    }
    if (second) dlclose(second);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0) printf("%s\n", all ? "FAILED" : "PASSED");
    return all ? 1 : 0;
}
