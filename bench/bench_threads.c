/*
 * bench_threads: handle pairs from several threads. Prints the pair cost of
 * one thread alone, then of each of 2 threads recording at once, and the
 * ratios (medians of interleaved rounds).
 *   build/bench/bench_threads [pairs_per_round]
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9

static long pairs = 2000000;
static pthread_barrier_t barrier;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ns per pair on the calling thread, buffers reserved first. */
static double record(const char *name) {
    sp_region_t h = sp_region(name);
    sp_reserve(h, (uint64_t)pairs);
    pthread_barrier_wait(&barrier);
    double t0 = now_s();
    for (long i = 0; i < pairs; i++) {
        sp_begin(h);
        sp_end(h);
    }
    return (now_s() - t0) * 1e9 / (double)pairs;
}

typedef struct job {
    const char *name;
    double ns;
} job;

static void *worker(void *arg) {
    job *j = arg;
    j->ns = record(j->name);
    return NULL;
}

static void session(void) {
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_threads_%ld.h5", dir && *dir ? dir : "/tmp",
             (long)getpid());
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    sp_setup(&opt);
}

static void end_session(void) {
    sp_finalize_options quiet = {.quiet = 1};
    sp_finalize(&quiet);
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_threads_%ld.h5", dir && *dir ? dir : "/tmp",
             (long)getpid());
    unlink(path);
}

/* One thread records while `idle` other threads exist (they recorded before). */
static double alone(void) {
    session();
    pthread_barrier_init(&barrier, NULL, 1);
    double ns = record("alone");
    pthread_barrier_destroy(&barrier);
    end_session();
    return ns;
}

static void together(int n, double *ns) {
    session();
    pthread_barrier_init(&barrier, NULL, (unsigned)n);
    pthread_t t[8];
    job jobs[8];
    for (int i = 0; i < n; i++) {
        jobs[i].name = i ? "worker" : "main";
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
        ns[i] = jobs[i].ns;
    }
    pthread_barrier_destroy(&barrier);
    end_session();
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare);
    return v[n / 2];
}

int main(int argc, char **argv) {
    if (argc > 1) pairs = atol(argv[1]);
    double single[ROUNDS], pair_a[ROUNDS], pair_b[ROUNDS], ratio_a[ROUNDS], ratio_b[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        single[r] = alone();
        double two[2];
        together(2, two);
        pair_a[r] = two[0];
        pair_b[r] = two[1];
        ratio_a[r] = two[0] / single[r];
        ratio_b[r] = two[1] / single[r];
    }
    printf("== threads: medians of %d interleaved rounds of %ld pairs per thread\n", ROUNDS, pairs);
    printf("one thread alone            %6.2f ns per pair\n", median(single, ROUNDS));
    printf("2 threads at once: thread 1 %6.2f ns per pair = %.2fx alone\n", median(pair_a, ROUNDS),
           median(ratio_a, ROUNDS));
    printf("                   thread 2 %6.2f ns per pair = %.2fx alone\n", median(pair_b, ROUNDS),
           median(ratio_b, ROUNDS));
    return 0;
}
