/*
 * bench_instructions: instructions per sp_begin+sp_end pair, counted by
 * callgrind (exact and independent of the machine's load, unlike times).
 * Each figure comes from one run of this program under
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=measure_KIND
 * so that only the measured loop of n pairs is counted; the empty loop's
 * count is subtracted (the loop itself). Kinds:
 *   handle          sp_begin(h)/sp_end(h), default journal, growing buffers
 *   handle_memory   the same, memory only (SCOPE_PROFILER_JOURNAL=0)
 *   handle_reserved the same after sp_reserve (no chunk switch in the loop)
 *   name_literal    sp_begin_name("bench")/sp_end_name("bench")
 *   name_runtime    by name through a string the compiler cannot see
 *   function        sp_begin_fn/sp_end_fn (what Fortran calls)
 *   cxx_literal     C++ sp::Region r{"bench"} (the literal cache)
 *   cxx_handle      C++ sp::Region r{h}
 *   aggregate       the handle pair in aggregate mode
 *   disabled        the handle pair before sp_setup
 * Usage: bench_instructions [pairs]   (needs valgrind on PATH or $VALGRIND)
 */
#include <scope_profiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.h"

#define NOINLINE __attribute__((noinline))

static char runtime_name[16] = "bench";

NOINLINE void measure_empty(sp_region_t h, long n);
NOINLINE void measure_handle(sp_region_t h, long n);
NOINLINE void measure_name_literal(sp_region_t h, long n);
NOINLINE void measure_name_runtime(sp_region_t h, long n);
NOINLINE void measure_function(sp_region_t h, long n);
/* bench_instructions_cxx.cpp */
void measure_cxx_literal(sp_region_t h, long n);
void measure_cxx_handle(sp_region_t h, long n);

NOINLINE void measure_empty(sp_region_t h, long n) {
    for (long i = 0; i < n; i++)
        __asm__ volatile("" ::"r"(h) : "memory");
}

NOINLINE void measure_handle(sp_region_t h, long n) {
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
}

NOINLINE void measure_name_literal(sp_region_t h, long n) {
    (void)h;
    for (long i = 0; i < n; i++) {
        sp_begin_name("bench");
        sp_end_name("bench");
    }
}

NOINLINE void measure_name_runtime(sp_region_t h, long n) {
    (void)h;
    for (long i = 0; i < n; i++) {
        sp_begin_name(runtime_name);
        sp_end_name(runtime_name);
    }
}

NOINLINE void measure_function(sp_region_t h, long n) {
    for (long i = 0; i < n; i++) {
        sp_begin_fn(h);
        sp_end_fn(h, __FILE__, __LINE__);
    }
}

typedef struct kind {
    const char *name;     /* the figure's name */
    const char *function; /* what callgrind counts */
    void (*measure)(sp_region_t, long);
    int session; /* 0 none, 1 journal, 2 memory, 3 aggregate */
    int reserve;
} kind;

static const kind kinds[] = {
    {"empty", "measure_empty", measure_empty, 1, 0},
    {"handle", "measure_handle", measure_handle, 1, 0},
    {"handle_memory", "measure_handle", measure_handle, 2, 0},
    {"handle_reserved", "measure_handle", measure_handle, 1, 1},
    {"name_literal", "measure_name_literal", measure_name_literal, 1, 0},
    {"name_runtime", "measure_name_runtime", measure_name_runtime, 1, 0},
    {"function", "measure_function", measure_function, 1, 0},
    {"cxx_literal", "measure_cxx_literal", measure_cxx_literal, 1, 0},
    {"cxx_handle", "measure_cxx_handle", measure_cxx_handle, 1, 0},
    {"aggregate", "measure_handle", measure_handle, 3, 0},
    {"disabled", "measure_handle", measure_handle, 0, 0},
};
#define NUM_KINDS (sizeof kinds / sizeof *kinds)

static int child(const kind *k, long n) {
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_instructions");
    setenv("SCOPE_PROFILER_JOURNAL", k->session == 2 ? "0" : "1", 1);
    setenv("SCOPE_PROFILER_CLOCK", "tsc", 1);
    if (k->session == 3) unsetenv("SCOPE_PROFILER_JOURNAL");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    opt.aggregate = k->session == 3;
    if (k->session && sp_setup(&opt) != SP_OK) return 1;
    sp_region_t h = sp_region("bench");
    if (k->reserve && sp_reserve(h, (uint64_t)n + 2000) != SP_OK) return 1;
    k->measure(h, 1000); /* first calls: attach, first chunks, call-site caches */
    k->measure(h, n);
    if (k->session) {
        sp_finalize_options quiet = {.quiet = 1};
        if (sp_finalize(&quiet) != SP_OK) return 1;
        unlink(path);
    }
    return 0;
}

/* Instructions callgrind counted in one child run, or -1. */
static double count(const char *self, const char *valgrind, const kind *k, long n) {
    char out[4096], toggle[256], pairs[32], index[16];
    bench_temp_path(out, sizeof out, "bench_instructions_callgrind");
    snprintf(toggle, sizeof toggle, "--toggle-collect=%s", k->function);
    snprintf(pairs, sizeof pairs, "%ld", n);
    snprintf(index, sizeof index, "%d", (int)(k - kinds));
    char out_arg[4200];
    snprintf(out_arg, sizeof out_arg, "--callgrind-out-file=%s", out);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        execlp(valgrind, valgrind, "--tool=callgrind", "--collect-atstart=no", toggle, out_arg,
               self, "--child", index, pairs, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    FILE *f = fopen(out, "r");
    double total = -1;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long v;
        if (sscanf(line, "totals: %llu", &v) == 1 || sscanf(line, "summary: %llu", &v) == 1)
            total = (double)v;
    }
    if (f) fclose(f);
    unlink(out);
    return total;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--child") == 0) {
        int i = atoi(argv[2]);
        if (i < 0 || (size_t)i >= NUM_KINDS) return 2;
        return child(&kinds[i], atol(argv[3]));
    }
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_instructions [pairs]\n");
        return 2;
    }
    const char *valgrind = getenv("VALGRIND");
    if (!valgrind || !*valgrind) valgrind = "valgrind";
    static const char *const vars[] = {"SCOPE_PROFILER_OUTPUT", "SCOPE_PROFILER_DISABLE",
                                       "SCOPE_PROFILER_AGGREGATE", "SCOPE_PROFILER_MEMORY_LIMIT"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return 1;
    self[len] = '\0'; /* under valgrind, /proc/self/exe would be valgrind */
    double empty = count(self, valgrind, &kinds[0], n);
    if (empty < 0) {
        fprintf(stderr, "bench_instructions: callgrind did not run (is valgrind installed?)\n");
        return 1;
    }
    printf("== instructions per sp_begin+sp_end pair (callgrind, %ld pairs, loop of %.1f "
           "instructions subtracted)\n",
           n, empty / (double)n);
    for (size_t i = 1; i < NUM_KINDS; i++) {
        double total = count(self, valgrind, &kinds[i], n);
        if (total < 0) {
            printf("  %-16s failed\n", kinds[i].name);
            continue;
        }
        printf("  %-16s %6.1f instructions per pair%s\n", kinds[i].name,
               (total - empty) / (double)n, i == 1 ? "  (target <= 50)" : "");
    }
    return 0;
}
