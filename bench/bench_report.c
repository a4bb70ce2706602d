/*
 * bench_report: sizes and times of the HTML report and the Gantt chart.
 *   1. the report of the tutorial's profile (tests/fixtures/py_tutorial2.h5): size;
 *   2. a profile of N calls (default 10 million; the time-step loop of
 *      bench_read_summary): read, report written (size, time), Gantt chart
 *      (size, elements);
 *   3. with node and the pinned playwright-core (tests/browser), the load event
 *      of both in headless Chromium.
 *   build/bench/bench_report [calls]
 * Targets (issue 14): tutorial report < 300 KB; 10M-call report < 10 MB,
 * written < 5 s, loaded < 3 s; 10M-call Gantt chart < 5 MB, rendered < 2 s.
 */
#include <scope_profiler.h>
#include <scope_profiler/plot.h>
#include <scope_profiler/report.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_profile.h"
#include "bench_support.h"

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void browser_load(const char *what, const char *path) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cd '%s/tests/browser' && test -d node_modules/playwright-core && "
             "node check_report.js load '%s'",
             SP_SOURCE_DIR, path);
    FILE *p = popen(cmd, "r");
    char line[256] = "";
    if (p) {
        if (!fgets(line, sizeof line, p)) line[0] = '\0';
        pclose(p);
    }
    long ms = -1, wall = -1;
    if (sscanf(line, "load_event_ms %ld wall_ms %ld", &ms, &wall) == 2)
        printf("%-34s %8.2f s (load event; %.2f s with the browser's start)\n", what, ms / 1e3,
               wall / 1e3);
    else
        printf("%-34s (not measured: node, playwright-core or chromium missing)\n", what);
}

static void write_or_die(sp_status st, const sp_error *err) {
    if (st != SP_OK) {
        fprintf(stderr, "bench_report: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    char dir[] = "/tmp/bench_report.XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char tut_html[512], prof[512], html[512], svg[512];
    snprintf(tut_html, sizeof tut_html, "%s/tutorial.html", dir);
    snprintf(prof, sizeof prof, "%s/run.h5", dir);
    snprintf(html, sizeof html, "%s/report.html", dir);
    snprintf(svg, sizeof svg, "%s/gantt.svg", dir);
    sp_error err = {0};

    sp_results *tut =
        bench_read_or_die("bench_report", SP_SOURCE_DIR "/tests/fixtures/py_tutorial2.h5");
    const sp_results *one[1] = {tut};
    write_or_die(sp_write_report_html(one, 1, NULL, tut_html, &err), &err);
    printf("%-34s %8.1f KB (target < 300 KB)\n", "tutorial report", file_size(tut_html) / 1e3);
    sp_results_free(tut);

    bench_write_nested_profile(prof, calls);
    double t0 = bench_now_s();
    sp_results *r = bench_read_or_die("bench_report", prof);
    double t1 = bench_now_s();
    one[0] = r;
    clock_t c1 = clock();
    write_or_die(sp_write_report_html(one, 1, NULL, html, &err), &err);
    double t2 = bench_now_s();
    clock_t c2 = clock();
    write_or_die(sp_write_plot_svg(one, 1, SP_PLOT_GANTT, NULL, svg, &err), &err);
    double t3 = bench_now_s();
    clock_t c3 = clock();
    printf("%-34s %8ld\n", "calls", calls);
    printf("%-34s %8.2f s\n", "read", t1 - t0);
    printf("%-34s %8.2f s (target < 5 s; CPU %.2f s; %.2f s with the read)\n", "report written",
           t2 - t1, (double)(c2 - c1) / CLOCKS_PER_SEC, t2 - t0);
    printf("%-34s %8.2f MB (target < 10 MB)\n", "report size", file_size(html) / 1e6);
    printf("%-34s %8.2f s (CPU %.2f s)\n", "gantt chart written", t3 - t2,
           (double)(c3 - c2) / CLOCKS_PER_SEC);
    printf("%-34s %8.1f KB (target < 5 MB)\n", "gantt chart size", file_size(svg) / 1e3);
    sp_results_free(r);
    browser_load("report loaded", html);
    browser_load("gantt chart loaded", svg);
    unlink(tut_html);
    unlink(prof);
    unlink(html);
    unlink(svg);
    rmdir(dir);
    return 0;
}
