/*
 * scope-profiler report FILE... [-o report.html]: one self-contained HTML
 * report (include/scope_profiler/report.h); the first FILE is the baseline.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_runs.h"
#include "cli/cli_select.h"
#include "scope_profiler/report.h"

enum { OPT_OUTPUT = 1, OPT_WIDTH, OPT_TITLE };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
    {"width", 0, CLI_VALUE, OPT_WIDTH},
    {"title", 0, CLI_VALUE, OPT_TITLE},
    CLI_SELECT_OPTIONS,
};

typedef struct report_cli {
    const char *output;
    sp_report_options ro;
    cli_select select;
} report_cli;

static int on_option(void *ctx, int id, const char *value) {
    report_cli *o = ctx;
    switch (id) {
    case OPT_OUTPUT:
        o->output = value;
        return 0;
    case OPT_TITLE:
        o->ro.title = value;
        return 0;
    case OPT_WIDTH: {
        char *end;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (errno || end == value || *end || v < 320 || v > 8192)
            return cli_value_error(
                "report", "bad --width \"%s\": give a whole number from 320 to 8192", value);
        o->ro.width = (int)v;
        return 0;
    }
    default:
        return cli_select_option(&o->select, id, value);
    }
}

static int run(const cli_list *files, report_cli *o) {
    cli_runs runs = CLI_RUNS_INIT;
    int rc = cli_read_runs(files, &runs);
    for (size_t i = 0; !rc && i < runs.count; i++)
        rc = cli_select_check(&o->select, cli_runs_items(&runs)[i], files->items[i]);
    if (!rc) {
        o->ro.filter = cli_select_filter(&o->select);
        const char *path = o->output ? o->output : "report.html";
        sp_error err = {0};
        if (sp_write_report_html(cli_runs_items(&runs), runs.count, &o->ro, path, &err)) {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        } else {
            cli_print_written("Report", path);
        }
    }
    cli_runs_free(&runs);
    return rc;
}

int cli_report(int argc, char **argv) {
    static const cli_command_spec spec = {"report", cli_help_report, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    report_cli o;
    memset(&o, 0, sizeof o);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc) rc = cli_expand_files("report", &args, &files);
    if (!rc) rc = run(&files, &o);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_select_free(&o.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
