/*
 * Where a session writes: SCOPE_PROFILER_OUTPUT or the file_path option,
 * with placeholders expanded (%p process id, %r rank, %j batch job id,
 * %t start time, %h host, %% a percent sign), a directory standing for
 * the default file name inside it, and, for a serial-library program that
 * a multi-process launcher started, the process's rank in the file name.
 */
#ifndef SP_RECORD_OUTPUT_PATH_H
#define SP_RECORD_OUTPUT_PATH_H

#include <stddef.h>

/* What a launcher's environment says about this process. */
typedef struct sp_launcher {
    long size;            /* processes in the job; 0 = unknown */
    long rank;            /* this process's rank; -1 = unknown */
    const char *variable; /* the variable the size (or rank) came from */
} sp_launcher;

/* Reads Open MPI, MPICH/PMI, PMIx and SLURM variables. */
void sp_launcher_detect(sp_launcher *out);

/* The path to write for `pattern` (malloc'ed; NULL if out of memory).
 * per_process: add ".rank<R>" before the extension unless %r is used. */
char *sp_output_path_resolve(const char *pattern, const sp_launcher *l, int per_process);

/* Creates the missing directories above path (as `mkdir -p`, for
 * SCOPE_PROFILER_OUTPUT=runs/ naming a directory). Returns 0, or the errno of
 * the first directory that could not be made, with its name in failed. */
int sp_output_path_make_parents(const char *path, char *failed, size_t failed_size);

#endif
