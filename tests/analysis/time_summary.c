/*
 * Manual timing (not a test): builds a synthetic single-rank profile of N
 * calls (default 10 million: timestep > assemble, solve > kernel), then times
 * sp_results_adopt, sp_results_summary (call tree, exclusive times,
 * percentiles, std) and sp_table_rows_build, and reports the peak memory
 * beyond the model's own 16 bytes per call (VmHWM after clear_refs).
 *   time_summary [calls [ranks]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "model/results_model.h"

/* CPU time of this process: the machine is shared, wall time is noisy. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0) v = strtol(line + strlen(key), NULL, 10);
    if (f) fclose(f);
    return v;
}

static void reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

enum { TIMESTEP, ASSEMBLE, SOLVE, KERNEL, NREG };

static void add_row(sp_model *m, uint32_t region, uint32_t rank, uint64_t offset, uint64_t count) {
    sp_model_row *row = &m->rows[m->num_rows++];
    memset(row, 0, sizeof *row);
    *row = (sp_model_row){.region = region,
                          .rank = rank,
                          .offset = offset,
                          .count = count,
                          .source_line = -1,
                          .exclusive_total = -1,
                          .source_file = sp_strdup(""),
                          .source_text = sp_strdup(""),
                          .tags = sp_strdup("[]"),
                          .event_metadata = sp_strdup("[]")};
}

/* Per rank, rows in file order, each row's calls in start order. */
static void build_model(sp_model *m, uint64_t n, uint32_t ranks) {
    static const char *names[NREG] = {"timestep", "assemble", "solve", "kernel"};
    uint64_t steps = n / 4 / ranks;
    memset(m, 0, sizeof *m);
    m->path = sp_strdup("synthetic.h5");
    m->schema = 3;
    m->num_regions = NREG;
    m->region_names = calloc(NREG, sizeof *m->region_names);
    for (int g = 0; g < NREG; g++)
        m->region_names[g] = sp_strdup(names[g]);
    m->num_events = steps * NREG * ranks;
    m->starts = malloc(m->num_events * sizeof *m->starts);
    m->durations = malloc(m->num_events * sizeof *m->durations);
    m->rows = calloc((size_t)NREG * ranks, sizeof *m->rows);
    uint64_t seed = 1;
    for (uint32_t rank = 0; rank < ranks; rank++) {
        int64_t t = 1000000;
        uint64_t base = (uint64_t)rank * NREG * steps;
        int64_t *st = m->starts + base, *du = m->durations + base;
        for (uint64_t k = 0; k < steps; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int64_t a = 1000 + (int64_t)(seed >> 54), s = 2000 + (int64_t)((seed >> 40) & 1023);
            st[k] = t, du[k] = a + s + 50;                             /* timestep */
            st[steps + k] = t + 10, du[steps + k] = a;                 /* assemble */
            st[2 * steps + k] = t + 20 + a, du[2 * steps + k] = s;     /* solve */
            st[3 * steps + k] = t + 30 + a, du[3 * steps + k] = s / 2; /* kernel */
            t += a + s + 100;
        }
        for (int g = 0; g < NREG; g++)
            add_row(m, (uint32_t)g, rank, base + (uint64_t)g * steps, steps);
    }
}

int main(int argc, char **argv) {
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ull;
    uint32_t ranks = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1;
    sp_model m;
    build_model(&m, n, ranks ? ranks : 1);
    n = m.num_events;
    long rss_model = status_kib("VmRSS:");
    reset_peak();
    sp_error err = {0};
    double t0 = now();
    sp_results *r = sp_results_adopt(&m, &err);
    double t1 = now();
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    double t2 = now();
    if (!rows) {
        fprintf(stderr, "summary failed: %s\n", err.message);
        return 1;
    }
    long peak_summary = status_kib("VmHWM:");
    sp_table_rows table;
    reset_peak();
    double t3 = now();
    sp_status st = sp_table_rows_build(r, NULL, NULL, NULL, &table, &err);
    double t4 = now();
    long peak_table = status_kib("VmHWM:");
    if (st != SP_OK) {
        fprintf(stderr, "table failed: %s\n", err.message);
        return 1;
    }
    printf("%llu calls, %zu regions, %u rank(s)\n", (unsigned long long)n, rows->count,
           (unsigned)sp_results_num_ranks(r));
    printf("  adopt (per-row facts, order)       %7.3f s CPU\n", t1 - t0);
    printf("  sp_results_summary (tree, excl, p) %7.3f s CPU\n", t2 - t1);
    printf("  sp_table_rows_build (call paths)   %7.3f s CPU\n", t4 - t3);
    printf("  model RSS %.1f MiB (%.1f B/call)\n", rss_model / 1024.0,
           rss_model * 1024.0 / (double)n);
    printf("  peak extra during summary %.1f B/call, during table %.1f B/call\n",
           (double)(peak_summary - rss_model) * 1024.0 / (double)n,
           (double)(peak_table - rss_model) * 1024.0 / (double)n);
    printf("  timestep: p50 %.9f p99 %.9f exclusive %.9f\n", rows->rows[0].p50_duration,
           rows->rows[0].p99_duration, rows->rows[0].exclusive_duration);
    sp_table_rows_free(&table);
    sp_summary_rows_free(rows);
    sp_results_free(r);
    return 0;
}
