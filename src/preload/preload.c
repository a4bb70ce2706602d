/*
 * libscope_profiler_preload.so: what `scope-profiler run` (src/cli/run.c)
 * puts in LD_PRELOAD. At load it starts a session for the program (a
 * provisional one: the program's own sp_setup() replaces it), at exit it
 * writes the profile, with the summary on stderr so that the program's
 * output stays its own. In an MPI program (libscope_profiler_mpi preloaded
 * too) the session frames MPI_Init to MPI_Finalize instead, as
 * sp_mpi_setup() does (mpi/pmpi_init.c).
 *
 * Only the process named by SCOPE_PROFILER_RUN_PID records (set by the CLI
 * before it executes the program, or here when the library was preloaded by
 * hand): a program the profiled one starts inherits LD_PRELOAD but not the
 * pid, so it runs unprofiled, unless SCOPE_PROFILER_FOLLOW_EXEC=1, where it
 * records into a file of its own (NAME.exec<PID>.h5).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/run_options.h"
#include "preload/core_link.h"
#include "preload/functions.h"
#include "preload/ompt_tool.h"
#include "scope_profiler.h"

static int started_here; /* this process is the one profiled */
static int waits_for_mpi;
static char *exec_output; /* a followed child's file name */

/* NAME.exec<PID>.h5 beside the parent's output: a followed child never writes the parent's file. */
static char *child_output(void) {
    const char *base = getenv("SCOPE_PROFILER_RUN_OUTPUT");
    if (!base || !*base) base = "profiling_data.h5";
    size_t n = strlen(base) + 32;
    char *path = malloc(n);
    if (!path) return NULL;
    const char *dot = strrchr(base, '.');
    const char *slash = strrchr(base, '/');
    int stem = dot && (!slash || dot > slash) ? (int)(dot - base) : (int)strlen(base);
    snprintf(path, n, "%.*s.exec%ld.h5", stem, base, (long)getpid());
    return path;
}

/* What the address-keyed recorders have to say at the end: throttled functions' names,
 * tables that overflowed. */
static void before_finalize(void) {
#ifdef SP_HAVE_OMPT
    sp_preload_ompt_report();
#endif
    sp_preload_functions_name();
}

static void finish(void) {
    if (!started_here) return;
    if (waits_for_mpi) return; /* MPI_Finalize writes it; a run without it keeps the journal */
    const sp_companion *core = sp_preload_core();
    if (!core || !core->session_is_provisional()) return; /* the program's own session */
    int quiet = 0;
    sp_run_options(&quiet);
    sp_finalize_options options = SP_FINALIZE_OPTIONS_INIT;
    options.stream = stderr;
    options.quiet = quiet;
    sp_status st = sp_finalize(&options);
    if (st != SP_OK && st != SP_ERR_NOT_ACTIVE)
        fprintf(stderr, "scope-profiler: run: writing the profile: %s\n", sp_status_string(st));
}

__attribute__((constructor)) static void start(void) {
    char mine[32];
    snprintf(mine, sizeof mine, "%ld", (long)getpid());
    const char *pid = getenv("SCOPE_PROFILER_RUN_PID");
    int is_child = pid && *pid && strcmp(pid, mine) != 0;
    if (is_child && !sp_run_env_on("SCOPE_PROFILER_FOLLOW_EXEC")) return;
    setenv("SCOPE_PROFILER_RUN_PID", mine, 1); /* from here on, children are children */
    const sp_companion *core = sp_preload_core();
    if (!core) return;
    started_here = 1;
    core->set_before_finalize(before_finalize);
    if (sp_run_env_on("SCOPE_PROFILER_FUNCTIONS")) sp_preload_functions_start();
    /* libscope_profiler_mpi in the process: MPI_Init starts the session */
    waits_for_mpi = dlsym(RTLD_DEFAULT, "sp_mpi_setup") != NULL;
    if (!waits_for_mpi) {
        if (is_child && (exec_output = child_output()) != NULL)
            setenv("SCOPE_PROFILER_RUN_OUTPUT", exec_output, 1); /* and its children's base */
        int quiet;
        sp_options options = sp_run_options(&quiet);
        sp_status st = core->setup_provisional(&options);
        if (st != SP_OK)
            fprintf(stderr, "scope-profiler: run: cannot start profiling: %s\n",
                    sp_status_string(st));
    }
    atexit(finish); /* after sp_setup's own handler: runs first */
}
