/* scope-profiler export data FILE... -o DIR: the numbers behind the charts. */
#ifndef SP_CLI_EXPORT_DATA_H
#define SP_CLI_EXPORT_DATA_H

#include "cli/cli_list.h"
#include "cli/cli_select.h"

/* Writes DIR/gantt_data.EXT, durations_data, flame_data, duration_timeseries_data
 * and, for several runs, speedup_data (EXT csv or json); metrics: the durations
 * metrics (none: total); x: the speedup axis (NULL: mpi_size). Returns a CLI exit
 * status. */
int cli_export_data(const cli_list *files, const char *dir, int json, const cli_list *metrics,
                    const char *x, cli_select *select);

#endif
