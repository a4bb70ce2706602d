/*
 * bench_fresh: the hot path in a fresh process (issue 15). Each figure is the
 * median of 7 fresh processes; each process times 10 M calls of one region
 * (sp_begin + sp_end by handle) and, in the same process, 10 M iterations of
 * the two bare TSC reads a pair needs. Modes: journal and memory only, each
 * without and with sp_reserve() before the loop. Targets: <= 1.2x the reads,
 * <= 1.1x with sp_reserve. Next to the wall-clock ratio it prints the ratio
 * of the recording thread's CPU time (steadier on a loaded machine) and the
 * CPU time the library's helper thread spent populating blocks ahead. The
 * last rows are floors: the two reads stored into memory populated before
 * the loop without the library (`ideal`), and through the least an
 * out-of-line recorder in a shared library can do (`minimal`,
 * bench_minimal_recorder.c).
 * Usage: bench_fresh [calls]    (runs itself as the child: bench_fresh --child ...)
 * SCOPE_PROFILER_POPULATE_AHEAD=0 in the environment turns the helper off.
 */
#include <scope_profiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define RUNS 7

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile uint64_t sink;

static double bare_reads_ns(long n, double *cpu_ns) {
    uint64_t acc = 0;
    double c0 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
        uint64_t a = __rdtsc();
        uint64_t b = __rdtsc();
        acc += b - a;
#else
        acc += (uint64_t)i;
#endif
    }
    sink += acc;
    double wall = (now_s() - t0) * 1e9 / (double)n;
    *cpu_ns = (cpu_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)n;
    return wall;
}

/* The figures of one child. */
typedef struct {
    double pair, bare;         /* wall ns per iteration */
    double pair_cpu, bare_cpu; /* the thread's CPU ns per iteration */
    double helper_cpu;         /* other threads' CPU ns per call, during the loop */
} fresh_figures;

/* bench_minimal_recorder.c */
void bench_minimal_setup(uint64_t *slots);
void bench_minimal_begin(void);
void bench_minimal_end(void);

/* The floor: what storing the two reads costs at all, into memory populated
 * before the loop: inline (no library; the `ideal` row) or through the least
 * an out-of-line recorder in a shared library does (`minimal`). */
static int ideal_child(long n, int minimal, fresh_figures *f) {
    size_t bytes = (size_t)n * 16;
    uint64_t *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (slots == MAP_FAILED) return 1;
    for (size_t off = 0; off < bytes; off += 4096)
        ((volatile char *)slots)[off] = 0;
    bench_minimal_setup(slots);
    double c0 = cpu_s(CLOCK_THREAD_CPUTIME_ID), t0 = now_s();
    if (minimal) {
        for (long i = 0; i < n; i++) {
            bench_minimal_begin();
            bench_minimal_end();
        }
    } else {
        for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
            slots[2 * i] = __rdtsc();
            slots[2 * i + 1] = __rdtsc();
#else
            slots[2 * i] = slots[2 * i + 1] = (uint64_t)i;
#endif
        }
    }
    f->pair = (now_s() - t0) * 1e9 / (double)n;
    f->pair_cpu = (cpu_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e9 / (double)n;
    f->helper_cpu = 0;
    munmap(slots, bytes);
    return 0;
}

/* The child: prints its fresh_figures (journal 2: the ideal loop, 3: the minimal recorder). */
static int child(const char *dir, int journal, int reserve, long n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_fresh_%ld.h5", dir, (long)getpid());
    setenv("SCOPE_PROFILER_JOURNAL", journal ? "1" : "0", 1);
    setenv("SCOPE_PROFILER_CLOCK", "tsc", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    fresh_figures f;
    f.bare = bare_reads_ns(n, &f.bare_cpu);
    if (journal >= 2) {
        if (ideal_child(n, journal == 3, &f) != 0) return 1;
        printf("%.4f %.4f %.4f %.4f %.4f\n", f.pair, f.bare, f.pair_cpu, f.bare_cpu, f.helper_cpu);
        return 0;
    }
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_region_t h = sp_region("bench");
    if (reserve && sp_reserve(h, (uint64_t)n) != SP_OK) return 1;
    double p0 = cpu_s(CLOCK_PROCESS_CPUTIME_ID), c0 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
    f.pair = (now_s() - t0) * 1e9 / (double)n;
    double thread = cpu_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    double process = cpu_s(CLOCK_PROCESS_CPUTIME_ID) - p0;
    f.pair_cpu = thread * 1e9 / (double)n;
    f.helper_cpu = (process - thread) * 1e9 / (double)n;
    sp_finalize_options quiet = {.quiet = 1};
    sp_finalize(&quiet);
    unlink(path);
    printf("%.4f %.4f %.4f %.4f %.4f\n", f.pair, f.bare, f.pair_cpu, f.bare_cpu, f.helper_cpu);
    return 0;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run_child(const char *self, const char *dir, int journal, int reserve, long n,
                     fresh_figures *f) {
    int fds[2];
    if (pipe(fds) != 0) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        char j[8], r[8], c[32];
        snprintf(j, sizeof j, "%d", journal);
        snprintf(r, sizeof r, "%d", reserve);
        snprintf(c, sizeof c, "%ld", n);
        execl(self, self, "--child", dir, j, r, c, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[128] = "";
    ssize_t got = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 0;
    buf[got] = '\0';
    return sscanf(buf, "%lf %lf %lf %lf %lf", &f->pair, &f->bare, &f->pair_cpu, &f->bare_cpu,
                  &f->helper_cpu) == 5;
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--child") == 0)
        return child(argv[2], atoi(argv[3]), atoi(argv[4]), atol(argv[5]));
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tmp && *tmp ? tmp : "/tmp");
    printf("== fresh processes: median of %d, %ld calls of one region each\n", RUNS, n);
    for (int journal = 1; journal >= -2; journal--) {
        for (int reserve = 0; reserve <= (journal >= 0); reserve++) {
            double ratio[RUNS], pair[RUNS], bare[RUNS], cpu_ratio[RUNS], helper[RUNS];
            for (int r = 0; r < RUNS; r++) {
                fresh_figures f;
                if (!run_child("/proc/self/exe", dir, journal < 0 ? 1 - journal : journal, reserve,
                               n, &f)) {
                    fprintf(stderr, "bench_fresh: a child failed\n");
                    return 1;
                }
                ratio[r] = f.pair / f.bare;
                pair[r] = f.pair;
                bare[r] = f.bare;
                cpu_ratio[r] = f.pair_cpu / f.bare_cpu;
                helper[r] = f.helper_cpu;
            }
            qsort(ratio, RUNS, sizeof *ratio, compare_double);
            qsort(pair, RUNS, sizeof *pair, compare_double);
            qsort(bare, RUNS, sizeof *bare, compare_double);
            qsort(cpu_ratio, RUNS, sizeof *cpu_ratio, compare_double);
            qsort(helper, RUNS, sizeof *helper, compare_double);
            if (journal < 0) {
                printf("%s %6.2f ns, two TSC reads %6.2f ns: %.2fx the reads; thread CPU %.2fx\n",
                       journal == -1 ? "ideal   (stores into populated memory, no library)  "
                                     : "minimal (TLS, slot, read, store; a shared library)",
                       pair[RUNS / 2], bare[RUNS / 2], ratio[RUNS / 2], cpu_ratio[RUNS / 2]);
                continue;
            }
            printf("%-7s %-17s pair %6.2f ns, two TSC reads %6.2f ns: %.2fx the reads "
                   "(target %s); thread CPU %.2fx; helper CPU %.2f ns per call\n",
                   journal ? "journal" : "memory", reserve ? "with sp_reserve" : "no sp_reserve",
                   pair[RUNS / 2], bare[RUNS / 2], ratio[RUNS / 2], reserve ? "<= 1.1x" : "<= 1.2x",
                   cpu_ratio[RUNS / 2], helper[RUNS / 2]);
        }
    }
    return 0;
}
