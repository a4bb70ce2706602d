/*
 * scope-profiler plot KIND FILE... -o DIR: standalone SVG charts
 * (include/scope_profiler/plot.h). One FILE: DIR/KIND.svg; several: one
 * chart per file, DIR/STEM.KIND.svg (speedup: one chart of all files,
 * DIR/speedup.svg). KIND "all" draws every single-run kind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_args.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_runs.h"
#include "cli/cli_select.h"
#include "scope_profiler/plot.h"

enum { OPT_OUTPUT = 1, OPT_WIDTH, OPT_METRIC, OPT_REGION, OPT_RANK, OPT_X, OPT_BINS };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT}, {"width", 0, CLI_VALUE, OPT_WIDTH},
    {"metric", 0, CLI_VALUE, OPT_METRIC},   {"region", 0, CLI_VALUE, OPT_REGION},
    {"rank", 0, CLI_VALUE, OPT_RANK},       {"x", 0, CLI_VALUE, OPT_X},
    {"bins", 0, CLI_VALUE, OPT_BINS},       CLI_SELECT_OPTIONS,
};

typedef struct plot_cli {
    const char *output;
    sp_plot_options po;
    cli_select select;
} plot_cli;

static int parse_int(const char *opt, const char *value, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        return cli_value_error("plot", "bad --%s \"%s\": give a whole number from %ld to %ld", opt,
                               value, lo, hi);
    *out = v;
    return 0;
}

static int on_option(void *ctx, int id, const char *value) {
    plot_cli *o = ctx;
    long v = 0;
    int rc = 0;
    switch (id) {
    case OPT_OUTPUT:
        o->output = value;
        return 0;
    case OPT_METRIC:
        o->po.metric = value;
        return 0;
    case OPT_REGION:
        o->po.region = value;
        return 0;
    case OPT_X:
        o->po.x = value;
        return 0;
    case OPT_WIDTH:
        if (!(rc = parse_int("width", value, 320, 8192, &v))) o->po.width = (int)v;
        return rc;
    case OPT_BINS:
        if (!(rc = parse_int("bins", value, 1, 200, &v))) o->po.bins = (int)v;
        return rc;
    case OPT_RANK:
        if (!(rc = parse_int("rank", value, 0, 2147483647L, &v))) {
            o->po.has_rank = 1;
            o->po.rank = (uint32_t)v;
        }
        return rc;
    default:
        return cli_select_option(&o->select, id, value);
    }
}

/* "run_a" for "dir/run_a.h5". */
static void file_stem(const char *path, char *out, size_t size) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = '\0';
}

static int write_chart(const sp_results *const *runs, size_t n, sp_plot_kind kind,
                       const plot_cli *o, const char *path) {
    sp_error err = {0};
    if (sp_write_plot_svg(runs, n, kind, &o->po, path, &err) != SP_OK) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    char what[64];
    snprintf(what, sizeof what, "%s chart", sp_plot_kind_name(kind));
    cli_print_written(what, path);
    return 0;
}

static int plot_kind(const cli_runs *runs, const cli_list *files, sp_plot_kind kind,
                     const plot_cli *o, const char *dir) {
    char path[4096];
    if (kind == SP_PLOT_SPEEDUP) {
        snprintf(path, sizeof path, "%s/speedup.svg", dir);
        return write_chart(cli_runs_items(runs), runs->count, kind, o, path);
    }
    for (size_t i = 0; i < runs->count; i++) {
        if (runs->count == 1) {
            snprintf(path, sizeof path, "%s/%s.svg", dir, sp_plot_kind_name(kind));
        } else {
            char stem[1024];
            file_stem(files->items[i], stem, sizeof stem);
            int repeats = 0;
            for (size_t k = 0; k < i; k++) {
                char other[1024];
                file_stem(files->items[k], other, sizeof other);
                repeats += strcmp(stem, other) == 0;
            }
            if (repeats)
                snprintf(path, sizeof path, "%s/%s-%d.%s.svg", dir, stem, repeats + 1,
                         sp_plot_kind_name(kind));
            else
                snprintf(path, sizeof path, "%s/%s.%s.svg", dir, stem, sp_plot_kind_name(kind));
        }
        const sp_results *one = runs->items[i];
        int rc = write_chart(&one, 1, kind, o, path);
        if (rc) return rc;
    }
    return 0;
}

static int run(const char *kind_name, const cli_list *files, plot_cli *o) {
    sp_plot_kind kind = SP_PLOT_GANTT;
    int all = strcmp(kind_name, "all") == 0;
    if (!all && !sp_plot_kind_from_name(kind_name, &kind)) {
        static const char *const charts[] = {"gantt",     "flame-chart", "flame-graph", "durations",
                                             "imbalance", "histogram",   "speedup",     "all"};
        return cli_choice_error("plot", "chart", kind_name, charts, sizeof charts / sizeof *charts);
    }
    cli_runs runs = CLI_RUNS_INIT;
    int rc = !all && kind == SP_PLOT_GANTT ? cli_read_runs_streamed(files, &runs)
                                           : cli_read_runs(files, &runs);
    for (size_t i = 0; !rc && i < runs.count; i++)
        rc = cli_select_check(&o->select, cli_runs_items(&runs)[i], files->items[i]);
    o->po.filter = cli_select_filter(&o->select);
    const char *dir = o->output ? o->output : ".";
    if (!rc && all) {
        for (int k = 0; k < SP_PLOT_NUM_KINDS && !rc; k++) {
            if (k == SP_PLOT_SPEEDUP) continue;
            rc = plot_kind(&runs, files, (sp_plot_kind)k, o, dir);
        }
    } else if (!rc) {
        rc = plot_kind(&runs, files, kind, o, dir);
    }
    cli_runs_free(&runs);
    return rc;
}

int cli_plot(int argc, char **argv) {
    static const cli_command_spec spec = {"plot", cli_help_plot, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    plot_cli o;
    memset(&o, 0, sizeof o);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT, rest = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc && args.count < 2) rc = cli_usage_error("plot", "needs a KIND and at least one FILE");
    for (size_t i = 1; !rc && i < args.count; i++)
        if (!cli_list_add(&rest, args.items[i])) rc = cli_out_of_memory();
    if (!rc) rc = cli_expand_files("plot", &rest, &files);
    if (!rc) rc = run(args.items[0], &files, &o);
    cli_list_free(&args);
    cli_list_free(&rest);
    cli_list_free(&files);
    cli_select_free(&o.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
