/*
 * Reading every FILE argument of a command that needs them all at once
 * (stats, metadata).
 */
#ifndef SP_CLI_RUNS_H
#define SP_CLI_RUNS_H

#include <stddef.h>

#include "cli/cli_list.h"
#include "scope_profiler/results.h"

typedef struct cli_runs {
    sp_results **items;
    size_t count;
} cli_runs;

#define CLI_RUNS_INIT                                                                              \
    { NULL, 0 }

/* Reads every file. Reports each file that cannot be read (one line each)
 * and returns CLI_EXIT_USAGE if any could not; else 0. */
int cli_read_runs(const cli_list *files, cli_runs *out);

/* The same with sp_read_streamed (plot gantt: its bars read the calls row by row). */
int cli_read_runs_streamed(const cli_list *files, cli_runs *out);

static inline const sp_results *const *cli_runs_items(const cli_runs *runs) {
    return (const sp_results *const *)runs->items;
}

void cli_runs_free(cli_runs *runs);

#endif
