/*
 * What the presenters print about a run besides its regions: the default
 * title of print_summary (default_title()).
 */
#ifndef SP_PRESENT_RUN_INFO_H
#define SP_PRESENT_RUN_INFO_H

#include "scope_profiler/results.h"

/* "{label} - {relpath} ({N} rank)" ("ranks" when N != 1; no "{label} - "
 * without a label; "unsaved run" for the path of results that have none).
 * Owned by the caller; NULL when out of memory. */
char *sp_run_default_title(const sp_results *results);

/* The file the results came from, or NULL when they have none (results
 * built in memory): then the notes carry no command hints. */
const char *sp_run_file_path(const sp_results *results);

#endif
