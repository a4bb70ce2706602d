/* stats --group-by KEY[,KEY]: one row per region per group of runs with equal
 * metadata values, as Thicket's groupby would give (docs/metadata.md). */
#ifndef SP_CLI_STATS_GROUP_H
#define SP_CLI_STATS_GROUP_H

#include "cli/cli_list.h"
#include "cli/cli_runs.h"
#include "scope_profiler/results.h"

typedef enum stats_group_format {
    STATS_GROUP_TEXT = 0,
    STATS_GROUP_JSON,
    STATS_GROUP_CSV
} stats_group_format;

/* Prints (or writes to `output`, NULL: stdout) the grouped table. Runs that
 * lack a key are listed on stderr and skipped; none left is an error. */
int cli_stats_group(const cli_runs *runs, const cli_list *files, const cli_list *keys,
                    const sp_filter *filter, stats_group_format format, const char *output);

#endif
