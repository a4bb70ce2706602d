/*
 * What diff and check share: the two sides (each a FILE or a glob of
 * repeated runs), the options both take, the error lines of bad input, and
 * the machine output.
 */
#ifndef SP_CLI_COMPARE_H
#define SP_CLI_COMPARE_H

#include "cli/cli_args.h"
#include "cli/cli_list.h"
#include "cli/cli_meta.h"
#include "cli/cli_runs.h"
#include "cli/cli_select.h"
#include "present/compare_out.h"
#include "scope_profiler/compare.h"

enum {
    CLI_OPT_METRIC = 2000,
    CLI_OPT_BY,
    CLI_OPT_FORMAT,
    CLI_OPT_SIGNIFICANT,
    CLI_OPT_LEVEL,
    CLI_OPT_MARGIN,
    CLI_OPT_PER_CALL,
    CLI_OPT_ALLOW_SIZES,
    CLI_OPT_TITLE_META
};

/* Option table entries of both commands (with CLI_SELECT_OPTIONS). */
#define CLI_COMPARE_OPTIONS                                                                        \
    {"metric", 0, CLI_VALUE, CLI_OPT_METRIC}, {"by", 0, CLI_VALUE, CLI_OPT_BY},                    \
        {"format", 0, CLI_VALUE, CLI_OPT_FORMAT},                                                  \
        {"significant", 0, CLI_FLAG, CLI_OPT_SIGNIFICANT}, {"level", 0, CLI_VALUE, CLI_OPT_LEVEL}, \
        {"margin", 0, CLI_VALUE, CLI_OPT_MARGIN}, {"per-call", 0, CLI_FLAG, CLI_OPT_PER_CALL}, {   \
        "allow-different-sizes", 0, CLI_FLAG, CLI_OPT_ALLOW_SIZES                                  \
    }                                                                                              \
    , { "title-meta", 0, CLI_VALUE, CLI_OPT_TITLE_META }

typedef enum cli_out_format { CLI_OUT_TEXT = 0, CLI_OUT_JSON, CLI_OUT_CSV } cli_out_format;

typedef struct cli_compare_args {
    const char *cmd;
    sp_compare_options options;
    cli_select select;
    cli_out_format format;
    int level_given;
    int allow_different_sizes;
    int strict; /* check --strict: an inconclusive verdict fails, so one run per side cannot pass */
    cli_list title_meta; /* --title-meta KEY[,KEY]: metadata shown in each side's title */
} cli_compare_args;

/* Takes one of the shared options. Returns 0 or an exit code after the error. */
int cli_compare_option(cli_compare_args *a, int id, const char *value);

/* A number option value ("--threshold 5"); 0 or an exit code after the error. */
int cli_parse_number(const char *cmd, const char *option, const char *value, double *out);

/* One side: the runs read from one FILE argument (a glob gives several). */
typedef struct cli_side {
    cli_list files;
    cli_runs runs;
    char *title; /* default title of the first run, "+ N more runs, pooled" */
} cli_side;

/*
 * Reads both sides from the two FILE arguments and computes the comparison
 * (the options' filter set from the selection). Reports bad input (one line
 * each): a FILE count other than two, unreadable files, schemas or rank
 * counts that differ, fewer runs than the significance test needs, aggregate
 * files with --per-call, no selected region, no region in common. Returns 0
 * or CLI_EXIT_USAGE.
 */
int cli_compare_run(cli_compare_args *a, const cli_list *args, cli_side *sa, cli_side *sb,
                    sp_comparison **out);

void cli_side_free(cli_side *s);

/* The document's side descriptions for JSON and CSV. */
sp_compare_doc cli_compare_doc(const cli_compare_args *a, const cli_side *sa, const cli_side *sb);

/* Writes the JSON or CSV of the comparison to stdout; 0 or an exit code. */
int cli_compare_machine_output(const cli_compare_args *a, const sp_comparison *c,
                               const sp_compare_doc *doc);

/* The text table to stdout; 0 or an exit code. */
int cli_compare_print_table(const sp_comparison *c, const char *title, int significance);

void cli_compare_args_free(cli_compare_args *a);

#endif
