/*
 * The region and rank selection shared by several commands:
 * --include RE..., --exclude RE..., --ranks LIST...
 */
#ifndef SP_CLI_SELECT_H
#define SP_CLI_SELECT_H

#include "cli/cli_args.h"
#include "cli/cli_list.h"
#include "cli/cli_ranks.h"
#include "scope_profiler/results.h"

enum { CLI_OPT_INCLUDE = 1000, CLI_OPT_EXCLUDE, CLI_OPT_RANKS, CLI_OPT_TAG };

/* The three option table entries. */
#define CLI_SELECT_OPTIONS                                                                         \
    {"include", 0, CLI_LIST, CLI_OPT_INCLUDE}, {"exclude", 0, CLI_LIST, CLI_OPT_EXCLUDE}, {        \
        "ranks", 0, CLI_LIST, CLI_OPT_RANKS                                                        \
    }                                                                                              \
    , { "tag", 0, CLI_LIST, CLI_OPT_TAG }

typedef struct cli_select {
    cli_list include;
    cli_list exclude;
    cli_ranks ranks;
    cli_list tags; /* --tag TAG...: regions carrying one of them */
} cli_select;

#define CLI_SELECT_INIT                                                                            \
    { CLI_LIST_INIT, CLI_LIST_INIT, CLI_RANKS_INIT, CLI_LIST_INIT }

/* Takes a value of one of the three options (id must be one of them).
 * Returns 0 or an exit code after printing the error. */
int cli_select_option(cli_select *s, int id, const char *value);

/* The library filter (pointers into s; call after the last option). */
sp_filter cli_select_filter(cli_select *s);

/* After reading a file: a rank it does not hold, an --include pattern that
 * matches none of its regions (with the closest name), or an --exclude that
 * leaves nothing, is reported naming the file. Returns 0 or CLI_EXIT_USAGE. */
int cli_select_check(const cli_select *s, const sp_results *r, const char *path);

/* Reads path; with --ranks only those ranks' calls are read from the file
 * (the rest of the run is known from the index and the stored statistics). */
sp_results *cli_select_read(const cli_select *s, const char *path, sp_error *err);

/* The same for the commands whose passes read the calls window by window
 * (events, export, plot gantt): sp_read_streamed, unless the environment
 * sets SCOPE_PROFILER_STREAM=0 (cli_stream_wanted) or --tag is given. */
sp_results *cli_select_read_streamed(const cli_select *s, const char *path, sp_error *err);
int cli_stream_wanted(void);

void cli_select_free(cli_select *s);

#endif
