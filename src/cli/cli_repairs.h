/*
 * What the reader repaired in a damaged profile (calls dropped, statistics
 * computed again: src/format/plausibility.c), said once per file on stderr.
 */
#ifndef SP_CLI_REPAIRS_H
#define SP_CLI_REPAIRS_H

#include "scope_profiler/results.h"

/* One warning line per kind of repair the read of r made; nothing when none. */
void cli_warn_repairs(const sp_results *r);

#endif
