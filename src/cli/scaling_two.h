/* `scaling --model --x P,N`: two-parameter models (src/models/pmnf2.h). */
#ifndef SP_CLI_SCALING_TWO_H
#define SP_CLI_SCALING_TWO_H

#include "cli/cli_list.h"
#include "cli/cli_select.h"
#include "scope_profiler/compare.h"

/* options->x holds "P,N"; predict is NULL or "p=P,n=N" (the parameters' names also work). */
int cli_scaling_two(const cli_list *files, sp_scaling_options *options, cli_select *select,
                    int model, const char *predict, const char *format);

#endif
