/*
 * bench_run_functions: what one -finstrument-functions call costs under
 * scope-profiler run --functions, against the annotated sp_begin/sp_end
 * pair (issue 24: at most 1.5x the pair). Runs the three builds of
 * bench_run_functions.c (plain, annotated, instrumented under the preload
 * library, throttling off) and prints, per call, with the plain loop
 * subtracted:
 *   - instructions, counted by callgrind in the measured loop only (exact,
 *     independent of the machine's load);
 *   - wall time, the minimum over RUNS runs.
 * Usage: bench_run_functions [CALLS [RUNS]]   (valgrind on PATH or $VALGRIND)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.h"

typedef struct variant {
    const char *name;
    const char *program;
    int preload; /* run under libscope_profiler_preload with --functions */
} variant;

static const variant variants[] = {
    {"plain loop", SP_BENCH_PLAIN, 0},
    {"annotated pair", SP_BENCH_ANNOTATED_PROGRAM, 0},
    {"instrumented call", SP_BENCH_INSTRUMENTED, 1},
};

/* The environment of one run: what `scope-profiler run --quiet --functions -o OUT` sets. */
static void child_environment(const variant *v, const char *out, int callgrind) {
    static const char *const clear[] = {"SCOPE_PROFILER_OUTPUT",       "SCOPE_PROFILER_DISABLE",
                                        "SCOPE_PROFILER_AGGREGATE",    "SCOPE_PROFILER_RUN_PID",
                                        "SCOPE_PROFILER_MEMORY_LIMIT", "LD_PRELOAD"};
    for (size_t i = 0; i < sizeof clear / sizeof *clear; i++)
        unsetenv(clear[i]);
    if (callgrind) setenv("SCOPE_PROFILER_CLOCK", "tsc", 1); /* valgrind hides the clocksource */
    if (!v->preload) return;
    setenv("LD_PRELOAD", SP_BENCH_PRELOAD, 1);
    setenv("SCOPE_PROFILER_FUNCTIONS", "1", 1);
    setenv("SCOPE_PROFILER_RUN_OUTPUT", out, 1);
    setenv("SCOPE_PROFILER_RUN_QUIET", "1", 1);
    setenv("SCOPE_PROFILER_THROTTLE_CALLS", "0", 1); /* every call recorded */
}

/* Runs argv with v's environment; its first line of output into line. 0 on success. */
static int run(const variant *v, char *const argv[], int callgrind, char *line, size_t size) {
    char out[4096];
    bench_temp_path(out, sizeof out, "bench_run_functions_profile");
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        child_environment(v, out, callgrind);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (!freopen("/dev/null", "w", stderr)) _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    line[0] = '\0';
    if (f) {
        if (!fgets(line, (int)size, f)) line[0] = '\0';
        while (fgetc(f) != EOF) {
        }
        fclose(f);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    remove(out);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Instructions callgrind counted in the measured loop of one run, or -1. */
static double instructions(const variant *v, const char *valgrind, long calls) {
    char out[4096], out_arg[4200], n[32], line[256];
    bench_temp_path(out, sizeof out, "bench_run_functions_callgrind");
    snprintf(out_arg, sizeof out_arg, "--callgrind-out-file=%s", out);
    snprintf(n, sizeof n, "%ld", calls);
    char *const argv[] = {(char *)valgrind,
                          "--tool=callgrind",
                          "--collect-atstart=no",
                          "--toggle-collect=measure",
                          out_arg,
                          (char *)v->program,
                          n,
                          NULL};
    double total = -1;
    if (run(v, argv, 1, line, sizeof line) == 0) {
        FILE *f = fopen(out, "r");
        while (f && fgets(line, sizeof line, f)) {
            unsigned long long count;
            if (sscanf(line, "totals: %llu", &count) == 1 ||
                sscanf(line, "summary: %llu", &count) == 1)
                total = (double)count;
        }
        if (f) fclose(f);
    }
    remove(out);
    return total;
}

/* The fastest of `runs` runs, in ns per call of the measured loop, or -1. */
static double wall_ns(const variant *v, long calls, int runs) {
    char n[32], line[256];
    snprintf(n, sizeof n, "%ld", calls);
    char *const argv[] = {(char *)v->program, n, NULL};
    double best = -1;
    for (int i = 0; i < runs; i++) {
        double ns;
        if (run(v, argv, 0, line, sizeof line) != 0 || sscanf(line, "%lf ns per call", &ns) != 1)
            return -1;
        if (best < 0 || ns < best) best = ns;
    }
    return best;
}

static void print_pair(const char *unit, const double *per_call) {
    double pair = per_call[1] - per_call[0], hook = per_call[2] - per_call[0];
    printf("  annotated pair     %7.1f %s per call\n", pair, unit);
    printf("  instrumented call  %7.1f %s per call: %.2fx the pair (target <= 1.5x)\n", hook, unit,
           hook / pair);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 2000000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (calls <= 0 || runs <= 0) {
        fprintf(stderr, "usage: bench_run_functions [CALLS [RUNS]]\n");
        return 2;
    }
    const char *valgrind = getenv("VALGRIND");
    if (!valgrind || !*valgrind) valgrind = "valgrind";
    double counted[3], timed[3];
    long counted_calls = calls < 200000 ? calls : 200000; /* callgrind runs ~50x slower */
    for (int i = 0; i < 3; i++) {
        counted[i] = instructions(&variants[i], valgrind, counted_calls) / (double)counted_calls;
        if (counted[i] < 0) {
            fprintf(stderr,
                    "bench_run_functions: %s under callgrind failed (is valgrind "
                    "installed?)\n",
                    variants[i].name);
            return 1;
        }
    }
    for (int i = 0; i < 3; i++)
        if ((timed[i] = wall_ns(&variants[i], calls, runs)) < 0) {
            fprintf(stderr, "bench_run_functions: %s failed\n", variants[i].name);
            return 1;
        }
    printf("== one call of an empty function: annotated sp_begin/sp_end pair against "
           "-finstrument-functions under run --functions (throttling off)\n");
    printf("instructions (callgrind, %ld calls, the plain loop's %.1f subtracted):\n",
           counted_calls, counted[0]);
    print_pair("instructions", counted);
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    printf("wall time (minimum of %d runs of %ld calls, the plain loop's %.1f ns subtracted, "
           "load %.1f):\n",
           runs, calls, timed[0], load[0]);
    print_pair("ns", timed);
    return 0;
}
