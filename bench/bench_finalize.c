/*
 * bench_finalize: the memory and time of sp_finalize for N calls (default 10
 * million) in one region, one process per measurement so that each peak is
 * its own. Prints the resident size before finalize (the recording), the peak
 * resident size during finalize (VmHWM) above it, and the CPU and wall time.
 * Usage: bench_finalize [calls] [none|auto|gzip] [quiet|table] [threads]
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"

static long calls_per_thread;
static sp_region_t region;

static void *record(void *arg) {
    (void)arg;
    for (long i = 0; i < calls_per_thread; i++) {
        sp_begin(region);
        sp_end(region);
    }
    return NULL;
}

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    const char *compression = argc > 2 ? argv[2] : "none";
    int table = argc > 3 && strcmp(argv[3], "table") == 0;
    int threads = argc > 4 ? atoi(argv[4]) : 1;
    if (calls <= 0 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: bench_finalize [calls] [none|auto|gzip] [quiet|table] [threads]\n");
        return 2;
    }
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_finalize");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = strcmp(compression, "none") == 0   ? SP_COMPRESSION_NONE
                      : strcmp(compression, "gzip") == 0 ? SP_COMPRESSION_GZIP
                                                         : SP_COMPRESSION_AUTO;
    opt.compression_level = 4;
    if (sp_setup(&opt) != SP_OK) {
        fprintf(stderr, "bench_finalize: sp_setup failed\n");
        return 1;
    }
    region = sp_region("bench");
    calls_per_thread = calls / threads;
    pthread_t tid[64];
    for (int i = 1; i < threads; i++)
        pthread_create(&tid[i], NULL, record, NULL);
    record(NULL);
    for (int i = 1; i < threads; i++)
        pthread_join(tid[i], NULL);
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    FILE *sink = fopen("/dev/null", "w");
    sp_finalize_options fo = {.quiet = !table, .stream = sink};
    double w0 = bench_now_s(), c0 = cpu_s();
    sp_status st = sp_finalize(&fo);
    double wall = bench_now_s() - w0, cpu = cpu_s() - c0;
    long peak = bench_status_kib("VmHWM:");
    if (sink) fclose(sink);
    unlink(path);
    if (st != SP_OK) {
        fprintf(stderr, "bench_finalize: sp_finalize: %s\n", sp_status_string(st));
        return 1;
    }
    printf("finalize (%s, %s, %d thread(s)) of %ld calls: %.3f s wall, %.3f s CPU; resident "
           "before %.1f MiB, peak during finalize %.1f MiB above it (%.2f bytes per call)\n",
           compression, table ? "table" : "quiet", threads, calls_per_thread * threads, wall, cpu,
           before / 1024.0, (peak - before) / 1024.0,
           (peak - before) * 1024.0 / (double)(calls_per_thread * threads));
    return 0;
}
