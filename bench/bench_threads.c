/*
 * bench_threads: handle pairs from 1, 2, 4 and 8 recording threads at once
 * (oversubscribed past the machine's cores), each against the same number of
 * floor threads (two TSC reads stored into memory populated before the loop:
 * what any recorder must do). Figures are per thread and in thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID: what the thread itself spent, so that
 * oversubscription and other processes' load do not count), medians of
 * interleaved rounds; the default journal and growing buffers, so the
 * library's helper thread populates blocks ahead: its CPU per call is the
 * process's CPU time minus the recording threads', during the loops.
 * It also checks that no two threads' per-call data share a cache line (the
 * thread structure's head, its cursors, its stack of open calls), and counts
 * the page faults and context switches of the recording threads per call.
 *   build/bench/bench_threads [pairs_per_thread]
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <pthread.h>
#include <scope_profiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"

#define ROUNDS     5
#define MAX_THREAD 8

static long pairs = 1000000;
static pthread_barrier_t barrier;

static double cpu_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct job {
    int record; /* 0: the floor loop */
    double cpu_ns;
    long faults, switches;
    uintptr_t lines[4]; /* cache lines the thread writes per call (recording) */
} job;

static void *worker(void *arg) {
    job *j = arg;
    uint64_t *slots = NULL;
    size_t bytes = (size_t)pairs * 16;
    sp_region_t h = sp_region("worker");
    if (!j->record) {
        slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (slots == MAP_FAILED) exit(1);
        for (size_t off = 0; off < bytes; off += 4096)
            ((volatile char *)slots)[off] = 0;
    } else {
        sp_begin(h); /* attach and take the first chunk outside the timed loop */
        sp_end(h);
    }
    struct rusage r0, r1;
    pthread_barrier_wait(&barrier);
    getrusage(RUSAGE_THREAD, &r0);
    double c0 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
    if (j->record) {
        for (long i = 0; i < pairs; i++) {
            sp_begin(h);
            sp_end(h);
        }
    } else {
        for (long i = 0; i < pairs; i++) {
#if defined(__x86_64__)
            slots[2 * i] = __builtin_ia32_rdtsc();
            slots[2 * i + 1] = __builtin_ia32_rdtsc();
#else
            slots[2 * i] = slots[2 * i + 1] = (uint64_t)i;
#endif
        }
    }
    j->cpu_ns = (cpu_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)pairs;
    getrusage(RUSAGE_THREAD, &r1);
    j->faults = r1.ru_minflt + r1.ru_majflt - r0.ru_minflt - r0.ru_majflt;
    j->switches = r1.ru_nvcsw + r1.ru_nivcsw - r0.ru_nvcsw - r0.ru_nivcsw;
#ifdef SP_INTERNAL_HOT_INLINE_
    const sp_internal_hot_ *t = sp_internal_tls_v2_.hot;
    if (j->record && h < t->num_cursors) { /* else the off structure: not recording inline */
        j->lines[0] = (uintptr_t)t / 64;
        j->lines[1] = (uintptr_t)&t->cursors[h] / 64;
        j->lines[2] = (uintptr_t)t->stack / 64;
        j->lines[3] = (uintptr_t)&sp_internal_tls_v2_ / 64; /* the busy mark */
    }
#endif
    pthread_barrier_wait(&barrier); /* keep every thread's state alive until all have looked */
    if (slots) munmap(slots, bytes);
    return NULL;
}

typedef struct figures {
    double cpu_ns;    /* median over the threads of each thread's CPU per pair */
    double helper_ns; /* the rest of the process's CPU per call */
    double faults, switches;
    int shared_lines; /* pairs of threads whose per-call lines coincide */
} figures;

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static figures run(int n, int record) {
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_threads");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    if (record && sp_setup(&opt) != SP_OK) exit(1);
    pthread_barrier_init(&barrier, NULL, (unsigned)n + 1);
    pthread_t t[MAX_THREAD];
    job jobs[MAX_THREAD];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < n; i++) {
        jobs[i].record = record;
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    pthread_barrier_wait(&barrier);
    double p0 = cpu_s(CLOCK_PROCESS_CPUTIME_ID);
    pthread_barrier_wait(&barrier); /* every loop is done */
    double process = cpu_s(CLOCK_PROCESS_CPUTIME_ID) - p0;
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    figures f = {0, 0, 0, 0, 0};
    double per_thread[MAX_THREAD], threads_total = 0;
    for (int i = 0; i < n; i++) {
        per_thread[i] = jobs[i].cpu_ns;
        threads_total += jobs[i].cpu_ns * (double)pairs * 1e-9;
        f.faults += (double)jobs[i].faults / ((double)pairs * n);
        f.switches += (double)jobs[i].switches / ((double)pairs * n);
        for (int k = 0; k < i; k++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    if (jobs[i].lines[a] && jobs[i].lines[a] == jobs[k].lines[b]) f.shared_lines++;
    }
    f.cpu_ns = median(per_thread, n);
    f.helper_ns = (process - threads_total) * 1e9 / ((double)pairs * n);
    if (f.helper_ns < 0) f.helper_ns = 0; /* the clocks' granularity */
    if (record) {
        sp_finalize_options quiet = {.quiet = 1};
        sp_finalize(&quiet);
        unlink(path);
    }
    return f;
}

int main(int argc, char **argv) {
    if (argc > 1) pairs = atol(argv[1]);
    if (pairs <= 0) {
        fprintf(stderr, "usage: bench_threads [pairs_per_thread]\n");
        return 2;
    }
    static const char *const vars[] = {"SCOPE_PROFILER_OUTPUT", "SCOPE_PROFILER_DISABLE",
                                       "SCOPE_PROFILER_AGGREGATE", "SCOPE_PROFILER_JOURNAL"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    printf("== threads: medians of %d interleaved rounds, %ld pairs per thread, thread CPU time "
           "(load average %.1f, %ld CPUs)\n",
           ROUNDS, pairs, load[0], sysconf(_SC_NPROCESSORS_ONLN));
    static const int counts[] = {1, 2, 4, 8};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        int n = counts[c];
        double floor_ns[ROUNDS], pair_ns[ROUNDS], ratio[ROUNDS], helper[ROUNDS];
        double faults = 0, switches = 0;
        int shared = 0;
        for (int r = 0; r < ROUNDS; r++) {
            figures fl = run(n, 0), rec = run(n, 1);
            floor_ns[r] = fl.cpu_ns;
            pair_ns[r] = rec.cpu_ns;
            ratio[r] = rec.cpu_ns / fl.cpu_ns;
            helper[r] = rec.helper_ns;
            faults += rec.faults / ROUNDS;
            switches += rec.switches / ROUNDS;
            shared += rec.shared_lines;
        }
        printf("%d thread%s: pair %6.2f ns, floor %6.2f ns: %.2fx the floor (target <= 1.1x); "
               "helper CPU %.2f ns per call; per call: %.1e page faults, %.1e context switches; "
               "threads sharing a per-call cache line: %d\n",
               n, n > 1 ? "s" : " ", median(pair_ns, ROUNDS), median(floor_ns, ROUNDS),
               median(ratio, ROUNDS), median(helper, ROUNDS), faults, switches, shared);
    }
    return 0;
}
