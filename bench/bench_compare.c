/*
 * bench_compare: writes two profiles of N calls each (default 10 million;
 * the time-step loop of bench_read_summary, the second run with a little
 * more work in one region), then does what `scope-profiler diff A B` and
 * `scope-profiler check A B --significant` do: read both files, compare
 * them region by region (the second with verdicts and the budget), and
 * format the table. Prints the time and the peak memory per call (of the
 * two files together, and of one) for each, and the same for --by path.
 *   build/bench/bench_compare [calls]
 */
#include <scope_profiler.h>
#include <scope_profiler/compare.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_profile.h"
#include "bench_support.h"
#include "present/compare_out.h"

static volatile double sink;

static void spin(int n) {
    double x = 1.0;
    for (int i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

static void measure(const char *what, const char *pa, const char *pb, long calls,
                    const sp_compare_options *o, const sp_check_options *check) {
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    double t0 = bench_now_s();
    clock_t cpu0 = clock();
    sp_results *a = bench_read_or_die("bench_compare", pa),
               *b = bench_read_or_die("bench_compare", pb);
    double t_read = bench_now_s() - t0;
    const sp_results *ca = a, *cb = b;
    sp_error err;
    sp_comparison *c = sp_compare(&ca, 1, &cb, 1, o, &err);
    if (!c) {
        fprintf(stderr, "bench_compare: %s\n", err.message);
        exit(1);
    }
    sp_textbuf text = SP_TEXTBUF_INIT;
    sp_compare_text(&text, c, "Regions", o->significance, 0);
    size_t violations = 0;
    for (size_t i = 0; check && i < c->count; i++)
        violations += (size_t)sp_compare_row_violates(&c->rows[i], check);
    double t = bench_now_s() - t0;
    double cpu = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
    long peak = bench_status_kib("VmHWM:");
    double bytes = (peak - before) * 1024.0;
    printf("%-30s read %.3f s + compare %.3f s = %.3f s (CPU %.3f s); peak %.1f MiB = %.1f bytes "
           "per call of the two files (%.1f per call of one); %zu rows",
           what, t_read, t - t_read, t, cpu, bytes / 1048576.0, bytes / (2.0 * (double)calls),
           bytes / (double)calls, c->count);
    if (check) printf(", %zu violation(s)", violations);
    putchar('\n');
    sp_textbuf_free(&text);
    sp_comparison_free(c);
    sp_results_free(a);
    sp_results_free(b);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    char pa[4096], pb[4096];
    bench_temp_path(pa, sizeof pa, "bench_compare_a");
    bench_temp_path(pb, sizeof pb, "bench_compare_b");
    unsetenv("SCOPE_PROFILER_OUTPUT");
    unsetenv("SCOPE_PROFILER_DISABLE");
    bench_write_nested_profile_with(pa, calls, NULL, 0);
    bench_write_nested_profile_with(pb, calls, spin, 20);
    printf("== compare two profiles of %ld calls each (gzip-compressed, 4 nested regions)\n",
           calls);
    sp_compare_options o = {0};
    measure("diff", pa, pb, calls, &o, NULL);
    o.significance = 1;
    sp_check_options check = {0.0, 0, 1, 0};
    o.sort = SP_COMPARE_SORT_PCT;
    measure("check --significant", pa, pb, calls, &o, &check);
    o.by = SP_COMPARE_BY_PATH;
    measure("check --significant --by path", pa, pb, calls, &o, &check);
    o.metric = SP_METRIC_P95;
    o.by = SP_COMPARE_BY_REGION;
    measure("diff --metric p95", pa, pb, calls, &o, NULL);
    unlink(pa);
    unlink(pb);
    return 0;
}
