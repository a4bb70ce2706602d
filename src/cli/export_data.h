/* scope-profiler export data FILE... -o DIR: the numbers behind the charts. */
#ifndef SP_CLI_EXPORT_DATA_H
#define SP_CLI_EXPORT_DATA_H

#include "cli/cli_list.h"
#include "cli/cli_select.h"

/* Writes DIR/gantt_data.EXT and DIR/durations_data.EXT (EXT csv or json);
 * metrics: the durations metrics (none: total). Returns a CLI exit status. */
int cli_export_data(const cli_list *files, const char *dir, int json, const cli_list *metrics,
                    cli_select *select);

#endif
