/*
 * scope-profiler calibrate -- PROGRAM [ARGS...]: measures the regression
 * gate itself. It runs PROGRAM RUNS times per side for PAIRS A/A pairs (both
 * sides identical) and POWER_PAIRS A/B pairs (side b with an injected
 * slowdown, an environment variable the program reads), compares each pair
 * as `check --significant` would, and reports the false-alarm rate (A/A
 * pairs called slower or faster), the power (A/B pairs called slower) and
 * the run-to-run noise measured (docs/compare.md § Calibration).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_args.h"
#include "cli/cli_compare.h"
#include "cli/cli_error.h"
#include "cli/cli_list.h"

#define MAX_RUNS 64

const char cli_help_calibrate[] =
    "Usage: scope-profiler calibrate [OPTIONS] -- PROGRAM [ARGS...]\n"
    "\n"
    "Measures the regression gate on this machine: runs PROGRAM (which must write\n"
    "its profile to $SCOPE_PROFILER_OUTPUT) RUNS times per side, for PAIRS A/A\n"
    "pairs (nothing changed) and POWER-PAIRS A/B pairs (side b with --inject set\n"
    "in its environment), compares every pair as check --significant does and\n"
    "prints the false-alarm rate, the power and the run-to-run noise.\n"
    "\n"
    "Options:\n"
    "  --pairs N          A/A pairs (default 200)\n"
    "  --power-pairs N    A/B pairs (default 100)\n"
    "  --runs N           runs per side (default 5, 2 to 64)\n"
    "  --inject VAR=VALUE the slowdown of side b (default SP_CALIBRATE_SLOWDOWN=0.05)\n"
    "  --region NAME      the region judged (default: the one with the most calls)\n"
    "  --metric M         total (default), avg, min, max, p50, p95 or p99\n"
    "  --level L          significance level (default 0.01)\n"
    "  --margin PCT       equivalence margin (default 2)\n"
    "  --dir DIR          where the runs' files go (default: a new directory in /tmp)\n"
    "\n"
    "Exit status: 0, or 2 for bad input or a run of PROGRAM that failed.\n"
    "\n"
    "Example (the figures of docs/compare.md):\n"
    "  nice -n 19 scope-profiler calibrate --metric p50 -- \\\n"
    "      build/tests/compare/calibrate_target\n";

enum { OPT_PAIRS = 1, OPT_POWER_PAIRS, OPT_RUNS, OPT_INJECT, OPT_REGION, OPT_DIR };

static const cli_option OPTIONS[] = {
    {"pairs", 0, CLI_VALUE, OPT_PAIRS},       {"power-pairs", 0, CLI_VALUE, OPT_POWER_PAIRS},
    {"runs", 0, CLI_VALUE, OPT_RUNS},         {"inject", 0, CLI_VALUE, OPT_INJECT},
    {"region", 0, CLI_VALUE, OPT_REGION},     {"dir", 0, CLI_VALUE, OPT_DIR},
    {"metric", 0, CLI_VALUE, CLI_OPT_METRIC}, {"level", 0, CLI_VALUE, CLI_OPT_LEVEL},
    {"margin", 0, CLI_VALUE, CLI_OPT_MARGIN},
};

typedef struct calibrate_args {
    cli_compare_args compare; /* first: the shared options see it as their context */
    long pairs, power_pairs, runs;
    const char *inject, *region, *dir;
} calibrate_args;

/* An error line, and the exit status of bad input. */
#define fail(...) (cli_error(__VA_ARGS__), CLI_EXIT_USAGE)

static int count_option(const char *option, const char *value, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (!*value || *end || errno || v < lo || v > hi)
        return cli_value_error("calibrate", "--%s needs a whole number from %ld to %ld, not \"%s\"",
                               option, lo, hi, value);
    *out = v;
    return 0;
}

static int on_option(void *ctx, int id, const char *value) {
    calibrate_args *a = ctx;
    switch (id) {
    case OPT_PAIRS:
        return count_option("pairs", value, 0, 100000, &a->pairs);
    case OPT_POWER_PAIRS:
        return count_option("power-pairs", value, 0, 100000, &a->power_pairs);
    case OPT_RUNS:
        return count_option("runs", value, 2, MAX_RUNS, &a->runs);
    case OPT_INJECT:
        if (!strchr(value, '=') || value[0] == '=')
            return cli_value_error("calibrate", "--inject needs VAR=VALUE, not \"%s\"", value);
        a->inject = value;
        return 0;
    case OPT_REGION:
        a->region = value;
        return 0;
    case OPT_DIR:
        a->dir = value;
        return 0;
    default:
        return cli_compare_option(&a->compare, id, value);
    }
}

/* One run of the program with its profile at `out`, side b with the injection. */
static int run_program(char **program, const char *out, const char *inject) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return fail("calibrate: cannot start %s: %s", program[0], strerror(errno));
    if (pid == 0) {
        setenv("SCOPE_PROFILER_OUTPUT", out, 1);
        unsetenv("SCOPE_PROFILER_LABEL");
        if (inject) putenv((char *)inject);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 1);
        execvp(program[0], program);
        fprintf(stderr, "scope-profiler: calibrate: cannot run %s: %s\n", program[0],
                strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return fail("calibrate: waitpid: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    cli_error("calibrate: %s %s %d: fix the program (it must exit 0 and write "
              "$SCOPE_PROFILER_OUTPUT)",
              program[0], WIFEXITED(status) ? "exited with status" : "was killed by signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return CLI_EXIT_USAGE;
}

static void free_results(sp_results **r, size_t n) {
    for (size_t i = 0; i < n; i++) {
        sp_results_free(r[i]);
        r[i] = NULL;
    }
}

/* The verdict of the judged row: --region, or the common row with the most
 * calls in b (the repeated work, not the one-call session), or a message. */
static int judged_row(const calibrate_args *a, const sp_comparison *c, const sp_comparison *calls,
                      sp_significance *out) {
    const char *name = a->region;
    double most = -1.0;
    for (size_t i = 0; !a->region && i < calls->count; i++)
        if (calls->rows[i].in_a && calls->rows[i].in_b && calls->rows[i].b > most) {
            most = calls->rows[i].b;
            name = calls->rows[i].name;
        }
    for (size_t i = 0; name && i < c->count; i++) {
        if (strcmp(c->rows[i].name, name) != 0) continue;
        *out = c->rows[i].sig;
        return 0;
    }
    return fail("calibrate: the runs hold no region %s%s%s: pick one with --region",
                a->region ? "\"" : "in common", a->region ? a->region : "", a->region ? "\"" : "");
}

/* Runs one pair (sides interleaved, so that a drift of the machine hits both) and counts it. */
static int one_pair(const calibrate_args *a, char **program, const char *dir, int ab,
                    sp_calibration_counts *counts) {
    sp_results *runs[2][MAX_RUNS] = {{NULL}};
    int rc = 0;
    char path[PATH_MAX];
    for (long k = 0; !rc && k < a->runs; k++)
        for (int side = 0; !rc && side < 2; side++) {
            snprintf(path, sizeof path, "%s/%c%ld.h5", dir, side ? 'b' : 'a', k);
            rc = run_program(program, path, side && ab ? a->inject : NULL);
            sp_error err = {0};
            if (!rc && !(runs[side][k] = sp_read(path, &err))) {
                cli_error_sp(&err);
                rc = CLI_EXIT_USAGE;
            }
        }
    if (!rc) {
        sp_error err = {0};
        const sp_results *const *ra = (const sp_results *const *)runs[0];
        const sp_results *const *rb = (const sp_results *const *)runs[1];
        sp_compare_options by_calls = {0};
        by_calls.metric = SP_METRIC_CALLS;
        sp_comparison *c =
            sp_compare(ra, (size_t)a->runs, rb, (size_t)a->runs, &a->compare.options, &err);
        sp_comparison *n =
            c ? sp_compare(ra, (size_t)a->runs, rb, (size_t)a->runs, &by_calls, &err) : NULL;
        sp_significance s;
        if (!c || !n) {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        } else if (!(rc = judged_row(a, c, n, &s))) {
            sp_calibration_count(counts, &s);
        }
        sp_comparison_free(c);
        sp_comparison_free(n);
    }
    free_results(runs[0], MAX_RUNS);
    free_results(runs[1], MAX_RUNS);
    return rc ? CLI_EXIT_USAGE : 0;
}

static void print_counts(const char *what, const sp_calibration_counts *c) {
    printf("%s: %u pairs: %u slower, %u faster, %u no change, %u inconclusive, %u n/a\n", what,
           c->pairs, c->slower, c->faster, c->no_change, c->inconclusive, c->undecided);
}

static void print_report(const calibrate_args *a, const sp_calibration_counts *aa,
                         const sp_calibration_counts *ab, double level) {
    printf("Calibration: %ld runs per side, metric %s, level %g, margin %g%%\n", a->runs,
           sp_metric_name(a->compare.options.metric), level, a->compare.options.margin * 100.0);
    if (aa->pairs) {
        print_counts("A/A", aa);
        printf("  false-alarm rate: %.1f %% (slower or faster; slower alone %.1f %%), noise "
               "(run-to-run, relative): %.2f %%\n",
               100.0 * (aa->slower + aa->faster) / aa->pairs, 100.0 * aa->slower / aa->pairs,
               100.0 * sp_calibration_noise(aa));
    }
    if (ab->pairs) {
        print_counts("A/B", ab);
        printf("  power (%s): %.1f %%, noise %.2f %%\n", a->inject, 100.0 * ab->slower / ab->pairs,
               100.0 * sp_calibration_noise(ab));
    }
}

static int calibrate(calibrate_args *a, const cli_list *args) {
    if (!args->count)
        return cli_usage_error("calibrate", "needs the program to run after \"--\" (e.g. "
                                            "calibrate -- ./my_benchmark)");
    if (a->compare.options.metric > SP_METRIC_P99)
        return cli_value_error("calibrate",
                               "--metric %s is not a duration: choose total, avg, "
                               "min, max, p50, p95 or p99",
                               sp_metric_name(a->compare.options.metric));
    char **program = calloc(args->count + 1, sizeof *program);
    if (!program) return cli_out_of_memory();
    for (size_t i = 0; i < args->count; i++)
        program[i] = (char *)args->items[i];
    char tmpl[] = "/tmp/sp-calibrate-XXXXXX";
    const char *dir = a->dir;
    if (!dir && !(dir = mkdtemp(tmpl))) {
        free(program);
        return fail("calibrate: cannot create a directory in /tmp: %s", strerror(errno));
    }
    if (a->dir && mkdir(a->dir, 0777) != 0 && errno != EEXIST) {
        free(program);
        return fail("calibrate: cannot create %s: %s", a->dir, strerror(errno));
    }
    a->compare.options.significance = 1;
    if (a->compare.options.margin == 0.0) a->compare.options.margin = SP_COMPARE_DEFAULT_MARGIN;
    double level = a->compare.options.level ? a->compare.options.level : SP_COMPARE_DEFAULT_LEVEL;
    sp_calibration_counts aa = {0}, ab = {0};
    int rc = 0;
    for (long p = 0; !rc && p < a->pairs + a->power_pairs; p++)
        rc = one_pair(a, program, dir, p >= a->pairs, p >= a->pairs ? &ab : &aa);
    if (!rc) print_report(a, &aa, &ab, level);
    char path[PATH_MAX];
    for (long k = 0; k < a->runs; k++)
        for (int side = 0; side < 2; side++) {
            snprintf(path, sizeof path, "%s/%c%ld.h5", dir, side ? 'b' : 'a', k);
            unlink(path);
        }
    if (!a->dir) rmdir(dir);
    free(program);
    return rc;
}

int cli_calibrate(int argc, char **argv) {
    static const cli_command_spec spec = {"calibrate", cli_help_calibrate, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    calibrate_args a;
    memset(&a, 0, sizeof a);
    a.compare.cmd = "calibrate";
    a.pairs = 200;
    a.power_pairs = 100;
    a.runs = 5;
    a.inject = "SP_CALIBRATE_SLOWDOWN=0.05";
    cli_list args = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &a, &args);
    if (!rc) rc = calibrate(&a, &args);
    cli_list_free(&args);
    cli_compare_args_free(&a.compare);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
