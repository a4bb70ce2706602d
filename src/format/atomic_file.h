/*
 * Atomic replacement of a file: write under a temporary name in the same
 * directory, fsync, rename over the target, fsync the directory. A failure
 * at any step leaves the target as it was.
 */
#ifndef SP_FORMAT_ATOMIC_FILE_H
#define SP_FORMAT_ATOMIC_FILE_H

#include "scope_profiler/results.h"

/* Creates an empty temporary file next to `path`; returns its name (owned) or NULL. */
char *sp_atomic_begin(const char *path, sp_error *err);

/* fsyncs the temporary file, renames it to `path`, fsyncs the directory. On
 * failure the temporary file is removed. */
sp_status sp_atomic_commit(const char *tmp_path, const char *path, sp_error *err);

/* Removes the temporary file. */
void sp_atomic_abort(const char *tmp_path);

/* The status for an errno from creating or writing a file. */
sp_status sp_status_from_errno(int error_number);

#endif
