/*
 * bench_mpi_scaling: the MPI finalize through both writers, in one job: P
 * ranks x N calls each (default 200,000; 4 regions), recorded afresh for
 * each of R rounds (default 3) of stream then parallel, so that both see
 * the same machine. Each call spins 0 to 63 steps of a random-number
 * generator, so that durations and start deltas vary as in real runs (and
 * compress to about 3 bytes per call, not to nothing). Per writer, rank 0 prints the median over
 * the rounds of: the finalize's wall time (the slowest rank's), rank 0's CPU time in it, and rank
 * 0's peak resident memory during finalize above what it held before (VmHWM; its own calls are in
 * the "before"). mpirun -np P build/bench/bench_mpi_scaling [calls_per_rank [rounds [auto|none]]]
 * bench/bench_mpi_scaling.sh runs P = 2 ... 32 and prints the table.
 */
#include <mpi.h>
#include <scope_profiler_mpi.h>
#include <scope_profiler/results.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_support.h"

static double cpu_s(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec +
           ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct figures {
    double wall, cpu, peak_mib, size_mib;
    int failed;
} figures;

static figures one_finalize(const char *path, sp_mpi_writer writer, long calls,
                            sp_compression compression, sp_region_t *regions, int num_regions) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.mpi_writer = writer;
    opt.compression = compression;
    opt.journal = SP_JOURNAL_OFF; /* the finalize, not the journal, is measured */
    sp_mpi_setup(&opt, MPI_COMM_WORLD);
    for (int r = 0; r < num_regions; r++) {
        char name[32];
        snprintf(name, sizeof name, "region_%d", r);
        regions[r] = sp_region(name);
    }
    volatile uint64_t x = (uint64_t)rank + 1;
    for (long i = 0; i < calls; i++) {
        sp_begin(regions[i % num_regions]);
        for (uint64_t k = (x >> 33) % 64; k > 0; k--)
            x = x * 6364136223846793005u + 1442695040888963407u;
        x = x * 6364136223846793005u + 1442695040888963407u;
        sp_end(regions[i % num_regions]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    sp_finalize_options quiet = {.quiet = 1};
    double c0 = cpu_s(), t0 = bench_now_s();
    sp_status st = sp_finalize(&quiet);
    double t = bench_now_s() - t0, c = cpu_s() - c0;
    long peak = bench_status_kib("VmHWM:");
    /* finalize may free pages before its peak: no growth counts as 0 */
    figures f = {0, c, peak > before ? (double)(peak - before) / 1024.0 : 0.0, 0, st != SP_OK};
    MPI_Reduce(&t, &f.wall, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    struct stat sb;
    if (rank == 0 && stat(path, &sb) == 0) f.size_mib = (double)sb.st_size / (1024.0 * 1024.0);
    if (rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    return f;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long calls = argc > 1 ? atol(argv[1]) : 200000;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    sp_compression compression =
        argc > 3 && strcmp(argv[3], "none") == 0 ? SP_COMPRESSION_NONE : SP_COMPRESSION_AUTO;
    if (rounds < 1 || rounds > 15) rounds = 3;
    int num_regions = argc > 5 ? atoi(argv[5]) : 4;
    if (num_regions < 1 || num_regions > 100000) num_regions = 4;
    sp_region_t *regions = malloc((size_t)num_regions * sizeof *regions);
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_mpi_scaling_%d.h5", dir && *dir ? dir : "/tmp",
             (int)getppid());
    static const sp_mpi_writer writers[2] = {SP_MPI_WRITER_STREAM, SP_MPI_WRITER_PARALLEL};
    static const char *const names[2] = {"stream", "parallel"};
    double wall[2][15], cpu[2][15], peak[2][15], mib[2] = {0, 0};
    int failed = 0;
    for (int r = 0; r < rounds; r++)
        for (int w = 0; w < 2; w++) {
            figures f = one_finalize(path, writers[w], calls, compression, regions, num_regions);
            wall[w][r] = f.wall;
            cpu[w][r] = f.cpu;
            peak[w][r] = f.peak_mib;
            mib[w] = f.size_mib;
            failed |= f.failed;
        }
    if (rank == 0) {
        if (argc > 4 && strcmp(argv[4], "header") == 0)
            printf("| ranks | calls/rank | regions | writer | finalize s | rank-0 CPU s | rank-0 "
                   "peak MiB | file MiB |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (int w = 0; w < 2; w++)
            printf("| %d | %ld | %d | %s | %.3f | %.3f | %.1f | %.1f |\n", size, calls, num_regions,
                   names[w], median(wall[w], rounds), median(cpu[w], rounds),
                   median(peak[w], rounds), mib[w]);
        if (failed) printf("(a finalize failed: the figures are not valid)\n");
    }
    free(regions);
    MPI_Finalize();
    return failed;
}
