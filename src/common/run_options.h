/*
 * scope-profiler run's settings (src/cli/run.c sets them, the preload
 * library and libscope_profiler_mpi's MPI_Init read them) as options of the
 * session run starts. They are not the SCOPE_PROFILER_* variables sp_setup()
 * reads: those override a program's own options, and a program that calls
 * sp_setup() itself keeps its own settings.
 */
#ifndef SP_COMMON_RUN_OPTIONS_H
#define SP_COMMON_RUN_OPTIONS_H

#include <stdlib.h>
#include <string.h>

#include "scope_profiler.h"

static inline int sp_run_env_on(const char *name) {
    const char *v = getenv(name);
    return v && (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "true") == 0 ||
                 strcmp(v, "on") == 0);
}

/* Options (strings point into the environment) and whether the summary is off. */
static inline sp_options sp_run_options(int *quiet) {
    sp_options o = SP_OPTIONS_INIT;
    const char *output = getenv("SCOPE_PROFILER_RUN_OUTPUT");
    const char *label = getenv("SCOPE_PROFILER_RUN_LABEL");
    if (output && *output) o.file_path = output;
    if (label && *label) o.label = label;
    o.aggregate = sp_run_env_on("SCOPE_PROFILER_RUN_AGGREGATE");
    o.mpi_calls = sp_run_env_on("SCOPE_PROFILER_RUN_MPI_CALLS");
    *quiet = sp_run_env_on("SCOPE_PROFILER_RUN_QUIET");
    return o;
}

#endif
