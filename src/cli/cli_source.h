/*
 * A region's captured source (inspect --source).
 *
 * The public analysis API has no accessor for it yet, so this reaches the
 * model behind the results through the library's internal bridge
 * (analysis/results_model.h). It is the only place in the tool that does;
 * replace it when results.h gains one.
 */
#ifndef SP_CLI_SOURCE_H
#define SP_CLI_SOURCE_H

#include <stdint.h>

#include "scope_profiler/results.h"

typedef struct cli_source {
    const char *file; /* "" when unknown */
    int64_t line;     /* -1 when unknown */
    const char *text; /* never empty */
} cli_source;

/* The source of the first (rank, region) row of `name` that has a captured
 * text. Returns 0 when there is none. The strings belong to the results. */
int cli_region_source(const sp_results *r, const char *name, cli_source *out);

#endif
