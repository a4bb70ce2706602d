/*
 * scope-profiler inspect FILE...: per file a banner, the metadata grouped,
 * the summary table (python_semantics.md §7), or the summary rows as JSON
 * or CSV with --format.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_contain.h"
#include "cli/cli_args.h"
#include "cli/cli_colour.h"
#include "cli/cli_depth.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/inspect.h"

enum {
    OPT_METADATA_ONLY = 1,
    OPT_REGIONS_ONLY,
    OPT_FULL,
    OPT_SORT,
    OPT_COLUMNS,
    OPT_PERCENTAGE_MODE,
    OPT_SOURCE,
    OPT_EXPORT_METADATA,
    OPT_QUIET,
    OPT_FORMAT,
    OPT_PER_RANK,
    OPT_ASCII,
    OPT_SUPPRESS_NOTES,
    OPT_TOP,
    OPT_WIDTH,
    OPT_BALANCE,
    OPT_BALANCE_ONLY,
    OPT_MPI_CALLS_ONLY,
    OPT_SECONDS,
    OPT_MAX_DEPTH
};

static const cli_option OPTIONS[] = {
    {"metadata-only", 0, CLI_FLAG, OPT_METADATA_ONLY},
    {"regions-only", 0, CLI_FLAG, OPT_REGIONS_ONLY},
    {"full", 0, CLI_FLAG, OPT_FULL},
    {"sort", 0, CLI_VALUE, OPT_SORT},
    {"columns", 0, CLI_LIST, OPT_COLUMNS},
    {"percentage-mode", 0, CLI_VALUE, OPT_PERCENTAGE_MODE},
    {"source", 0, CLI_LIST, OPT_SOURCE},
    {"export-metadata", 0, CLI_VALUE, OPT_EXPORT_METADATA},
    {"quiet", 'q', CLI_FLAG, OPT_QUIET},
    {"format", 0, CLI_VALUE, OPT_FORMAT},
    {"per-rank", 0, CLI_FLAG, OPT_PER_RANK},
    {"ascii", 0, CLI_FLAG, OPT_ASCII},
    {"suppress-notes", 0, CLI_FLAG, OPT_SUPPRESS_NOTES},
    {"top", 0, CLI_VALUE, OPT_TOP},
    {"width", 0, CLI_VALUE, OPT_WIDTH},
    {"balance", 0, CLI_FLAG, OPT_BALANCE},
    {"balance-only", 0, CLI_FLAG, OPT_BALANCE_ONLY},
    {"mpi-calls-only", 0, CLI_FLAG, OPT_MPI_CALLS_ONLY},
    {"seconds", 0, CLI_FLAG, OPT_SECONDS},
    {"max-depth", 0, CLI_VALUE, OPT_MAX_DEPTH},
    CLI_SELECT_OPTIONS,
};

static const char *const SORT_KEYS[] = {"start", "total", "calls",     "avg", "min",
                                        "max",   "first", "last",      "std", "p50",
                                        "p95",   "p99",   "imbalance", "name"};

static const char *const COLUMNS[] = {"name",
                                      "region",
                                      "ranks",
                                      "calls",
                                      "total",
                                      "percent",
                                      "parent_percent",
                                      "avg",
                                      "min",
                                      "max",
                                      "first",
                                      "last",
                                      "std",
                                      "p50",
                                      "p95",
                                      "p99",
                                      "imbalance",
                                      "slowest",
                                      "load_balance",
                                      "threads",
                                      "thread_imbalance",
                                      "slowest_thread"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int set_format(inspect_options *o, const char *value) {
    static const char *const names[] = {"table", "json", "csv"};
    int i = cli_choice_index(value, names, COUNT(names));
    if (i < 0) return cli_choice_error("inspect", "--format", value, names, COUNT(names));
    o->format = (inspect_format)i;
    o->format_given = 1;
    return 0;
}

static int on_value(inspect_options *o, int id, const char *value) {
    switch (id) {
    case OPT_SORT:
        if (cli_choice_index(value, SORT_KEYS, COUNT(SORT_KEYS)) < 0)
            return cli_choice_error("inspect", "sort key", value, SORT_KEYS, COUNT(SORT_KEYS));
        o->sort = value;
        return 0;
    case OPT_COLUMNS:
        if (cli_choice_index(value, COLUMNS, COUNT(COLUMNS)) < 0)
            /* "name" (first) is an alias of "region": not listed */
            return cli_choice_error("inspect", "column", value, COLUMNS + 1, COUNT(COLUMNS) - 1);
        return cli_list_add(&o->columns, value) ? 0 : cli_out_of_memory();
    case OPT_PERCENTAGE_MODE: {
        static const char *const modes[] = {"coverage", "exclusive"};
        if (cli_choice_index(value, modes, COUNT(modes)) < 0)
            return cli_choice_error("inspect", "--percentage-mode", value, modes, COUNT(modes));
        o->percentage_mode = value;
        return 0;
    }
    case OPT_SOURCE:
        return cli_list_add(&o->source, value) ? 0 : cli_out_of_memory();
    case OPT_EXPORT_METADATA:
        o->export_metadata = value;
        return 0;
    case OPT_FORMAT:
        return set_format(o, value);
    case OPT_MAX_DEPTH:
        return cli_max_depth("inspect", value, &o->max_depth);
    case OPT_TOP:
    case OPT_WIDTH: {
        char *end;
        long n = strtol(value, &end, 10);
        int ok = *value && *end == '\0' && n >= (id == OPT_TOP ? 1 : 0) && n <= 1000000000L;
        if (!ok)
            return cli_value_error("inspect", "bad --%s \"%s\": expected %s",
                                   id == OPT_TOP ? "top" : "width", value,
                                   id == OPT_TOP ? "a number of regions, 1 or more"
                                                 : "a number of columns (0: no limit)");
        if (id == OPT_TOP)
            o->top = (size_t)n;
        else
            o->width = n;
        return 0;
    }
    default:
        return cli_select_option(&o->select, id, value);
    }
}

static int on_option(void *ctx, int id, const char *value) {
    inspect_options *o = ctx;
    switch (id) {
    case OPT_METADATA_ONLY:
        o->metadata_only = 1;
        return 0;
    case OPT_REGIONS_ONLY:
        o->regions_only = 1;
        return 0;
    case OPT_FULL:
        o->full = 1;
        return 0;
    case OPT_QUIET:
        o->quiet = 1;
        return 0;
    case OPT_PER_RANK:
        o->per_rank = 1;
        return 0;
    case OPT_ASCII:
        o->ascii = 1;
        return 0;
    case OPT_SUPPRESS_NOTES:
        o->suppress_notes = 1;
        return 0;
    case OPT_BALANCE:
        o->balance = 1;
        return 0;
    case OPT_BALANCE_ONLY:
        o->balance_only = 1;
        return 0;
    case OPT_MPI_CALLS_ONLY:
        o->mpi_calls_only = 1;
        return 0;
    case OPT_SECONDS:
        o->seconds = 1;
        return 0;
    default:
        return on_value(o, id, value);
    }
}

/* Combinations that would silently do nothing are usage errors. */
static int check_combinations(const inspect_options *o) {
    const char *cmd = "inspect";
    if (o->metadata_only + o->regions_only + o->balance_only + o->mpi_calls_only > 1)
        return cli_usage_error(cmd, "--metadata-only, --regions-only, --balance-only and "
                                    "--mpi-calls-only exclude each other (each prints one section)");
    if ((o->balance_only || o->mpi_calls_only) && o->format != INSPECT_TABLE)
        return cli_usage_error(cmd, "--%s prints a table section: leave out --format, or use "
                                    "--balance --format json",
                               o->balance_only ? "balance-only" : "mpi-calls-only");
    if (o->balance && o->format != INSPECT_JSON)
        return cli_usage_error(cmd, "--balance needs --format json (the table report has a "
                                    "\"Load balance\" section for multi-rank files)");
    if (o->balance && o->per_rank)
        return cli_usage_error(cmd, "--balance and --per-rank exclude each other");
    if (o->per_rank && o->format == INSPECT_TABLE)
        return cli_usage_error(cmd, "--per-rank needs --format json or --format csv");
    if (o->format == INSPECT_TABLE) return 0;
    if (o->metadata_only)
        return cli_value_error(cmd,
                               "--format %s prints summary rows, not metadata; "
                               "scope-profiler metadata prints metadata as JSON",
                               o->format == INSPECT_JSON ? "json" : "csv");
    if (o->sort || o->columns.count || o->source.count)
        return cli_usage_error(cmd, "--sort, --columns and --source apply to --format table only");
    if (o->top || o->suppress_notes || o->width >= 0 || o->max_depth)
        return cli_usage_error(cmd, "--top, --suppress-notes, --width and --max-depth apply to "
                                    "--format table only (JSON and CSV keep every row and full "
                                    "names)");
    return 0;
}

/* The report of one file (nothing with -q). */
static int report(const sp_results *r, const char *path, const inspect_options *o) {
    if (o->format != INSPECT_TABLE && !o->balance) return inspect_print_rows(stdout, r, o);
    inspect_attach_waits(r, path); /* slowest rank: time outside MPI waits */
    if (o->balance) return inspect_print_balance_json(stdout, r, o);
    inspect_print_header(stdout, r, path, o);
    int only = o->metadata_only || o->regions_only || o->balance_only || o->mpi_calls_only;
    int rc = 0;
    if (!only || o->metadata_only) rc = inspect_print_metadata(stdout, r, o);
    if (!rc && !only) inspect_print_threads(stdout, r, o);
    if (!rc && (!only || o->regions_only)) rc = inspect_print_regions(stdout, r, o);
    if (!rc && (!only || o->balance_only)) inspect_print_balance(stdout, r, o);
    if (!rc && (!only || o->balance_only)) inspect_print_waits(stdout, path, o);
    if (!rc && (!only || o->mpi_calls_only)) inspect_print_mpi_calls(stdout, r, o);
    if (!rc && o->source.count) inspect_print_source(stdout, r, o);
    return rc;
}

/* Checks the include/exclude patterns before anything of the file is printed. */
static int check_patterns(const sp_results *r, const inspect_options *o) {
    sp_error err = {0};
    size_t n = 0;
    const sp_mpi_region **list = sp_results_get_regions(r, &o->filter, &n, &err);
    if (list) {
        sp_region_list_free(list);
        return 0;
    }
    cli_error_sp(&err);
    return CLI_EXIT_USAGE;
}

typedef struct run_list {
    sp_results **runs;
    size_t count;
} run_list;

/* Reads and reports every file; keeps the results in kept when non-NULL. */
static int inspect_files(const cli_list *files, const inspect_options *o, run_list *kept) {
    int status = 0;
    size_t printed = 0;
    for (size_t i = 0; i < files->count; i++) {
        sp_error err = {0};
        cli_reading(files->items[i]);
        sp_results *r = cli_select_read(&o->select, files->items[i], &err);
        if (!r) {
            cli_error_sp(&err);
            status = CLI_EXIT_USAGE;
            continue;
        }
        int rc = check_patterns(r, o);
        if (rc) {
            sp_results_free(r);
            return rc; /* the same patterns would fail for every file */
        }
        if (!o->metadata_only && (rc = cli_select_check(&o->select, r, files->items[i]))) {
            sp_results_free(r); /* nothing of this file is printed */
            status = rc;
            continue;
        }
        if (!o->quiet) {
            if (printed++) fputc('\n', stdout);
            rc = report(r, files->items[i], o);
            if (rc) status = rc;
        }
        if (kept)
            kept->runs[kept->count++] = r;
        else
            sp_results_free(r);
    }
    return status;
}

static int export_metadata(const run_list *runs, const char *path) {
    sp_error err = {0};
    if (sp_write_metadata_json((const sp_results *const *)runs->runs, runs->count, path, &err)) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    printf("Metadata written to %s\n", cli_shown(path));
    return 0;
}

static int run(const cli_list *files, inspect_options *o) {
    run_list kept = {NULL, 0};
    if (o->export_metadata) {
        kept.runs = calloc(files->count, sizeof *kept.runs);
        if (!kept.runs) return cli_out_of_memory();
    }
    int rc = inspect_files(files, o, o->export_metadata ? &kept : NULL);
    if (!rc && o->export_metadata) rc = export_metadata(&kept, o->export_metadata);
    for (size_t i = 0; i < kept.count; i++)
        sp_results_free(kept.runs[i]);
    free(kept.runs);
    return rc;
}

int cli_inspect(int argc, char **argv) {
    static const cli_command_spec spec = {"inspect", cli_help_inspect, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    inspect_options o;
    memset(&o, 0, sizeof o);
    o.width = -1;
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc) rc = check_combinations(&o);
    if (!rc) rc = cli_expand_files("inspect", &args, &files);
    if (!rc) {
        o.filter = cli_select_filter(&o.select);
        o.colour = o.format == INSPECT_TABLE && cli_colour_wanted(stdout);
        o.fit_to = o.width >= 0 ? (size_t)o.width : cli_terminal_width(stdout);
        rc = run(&files, &o);
    }
    cli_list_free(&args);
    cli_list_free(&files);
    cli_list_free(&o.columns);
    cli_list_free(&o.source);
    cli_select_free(&o.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
