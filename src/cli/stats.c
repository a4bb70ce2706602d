/*
 * scope-profiler stats FILE... [-o PATH]: region statistics of one or more
 * runs as the region_statistics.json document (FORMAT.md §7,
 * python_semantics.md §6.1-6.2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_runs.h"
#include "cli/cli_meta.h"
#include "cli/cli_select.h"
#include "cli/stats_group.h"

enum { OPT_OUTPUT = 1, OPT_LABELS, OPT_GROUP_BY, OPT_FORMAT };

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
    {"labels", 0, CLI_LIST, OPT_LABELS},
    {"group-by", 0, CLI_VALUE, OPT_GROUP_BY},
    {"format", 0, CLI_VALUE, OPT_FORMAT},
    CLI_SELECT_OPTIONS,
};

typedef struct stats_options {
    const char *output;
    cli_list labels;
    cli_select select;
    cli_list group_by; /* --group-by KEY[,KEY] (stats_group.c) */
    const char *format;
} stats_options;

static int on_option(void *ctx, int id, const char *value) {
    stats_options *o = ctx;
    switch (id) {
    case OPT_OUTPUT:
        o->output = value;
        return 0;
    case OPT_LABELS:
        return cli_list_add(&o->labels, value) ? 0 : cli_out_of_memory();
    case OPT_GROUP_BY:
        return cli_meta_keys("stats", "group-by", value, &o->group_by);
    case OPT_FORMAT:
        if (strcmp(value, "text") && strcmp(value, "json") && strcmp(value, "csv"))
            return cli_value_error("stats",
                                   "unknown --format \"%s\": choose text, json or csv "
                                   "(with --group-by)",
                                   value);
        o->format = value;
        return 0;
    default:
        return cli_select_option(&o->select, id, value);
    }
}

/* The file's text on stdout, exactly as -o PATH would write it, and as
 * bounded in memory (staged in $TMPDIR, then copied: atomic_file.h). */
static int print_document(const cli_runs *runs, const sp_stats_options *so) {
    sp_error err = {0};
    fflush(stdout);
    if (sp_write_region_statistics_json(cli_runs_items(runs), runs->count, so, "-", &err)) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int write_document(const cli_runs *runs, const sp_stats_options *so, const char *path) {
    sp_error err = {0};
    if (sp_write_region_statistics_json(cli_runs_items(runs), runs->count, so, path, &err)) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    printf("Region statistics written to %s\n", cli_shown(path));
    return 0;
}

static int run(const cli_list *files, stats_options *o) {
    if (o->format && !o->group_by.count)
        return cli_usage_error("stats", "--format is for --group-by; the region statistics "
                                        "document is JSON (-o PATH, or -o - for stdout)");
    if (o->labels.count && o->labels.count != files->count)
        return cli_usage_error("stats", "--labels gives %zu label(s) for %zu file(s)",
                               o->labels.count, files->count);
    cli_runs runs = CLI_RUNS_INIT;
    int rc = cli_read_runs(files, &runs);
    for (size_t i = 0; !rc && i < runs.count; i++)
        rc = cli_select_check(&o->select, runs.items[i], files->items[i]);
    if (!rc && o->group_by.count) {
        sp_filter filter = cli_select_filter(&o->select);
        stats_group_format f = !o->format || !strcmp(o->format, "text") ? STATS_GROUP_TEXT
                               : !strcmp(o->format, "json")             ? STATS_GROUP_JSON
                                                                        : STATS_GROUP_CSV;
        rc = cli_stats_group(&runs, files, &o->group_by, &filter, f, o->output);
    } else if (!rc) {
        sp_stats_options so = {0};
        so.labels = o->labels.count ? cli_list_items(&o->labels) : NULL;
        so.filter = cli_select_filter(&o->select);
        const char *path = o->output ? o->output : "region_statistics.json";
        rc = strcmp(path, "-") == 0 ? print_document(&runs, &so) : write_document(&runs, &so, path);
    }
    cli_runs_free(&runs);
    return rc;
}

int cli_stats(int argc, char **argv) {
    static const cli_command_spec spec = {"stats", cli_help_stats, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    stats_options o;
    memset(&o, 0, sizeof o);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc) rc = cli_expand_files("stats", &args, &files);
    if (!rc) rc = run(&files, &o);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_list_free(&o.labels);
    cli_list_free(&o.group_by);
    cli_select_free(&o.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
