/*
 * Safe writing of an output file (docs/robustness.md, "Output targets"):
 * - a regular file (or none yet) is replaced atomically: the data goes to a
 *   temporary name in the same directory, is fsync'ed and renamed over it;
 * - a symbolic link is followed: the file it points to is replaced, the link
 *   stays (a dangling link, or a loop, is refused);
 * - "-", /dev/stdout and the other descriptor aliases, FIFOs and character or
 *   block devices are written through: the data is staged in $TMPDIR, then
 *   copied into the target, which is never removed or replaced;
 * - anything else (a directory, a socket) is refused with a clear error.
 * A failure at any step leaves the target as it was.
 */
#ifndef SP_FORMAT_ATOMIC_FILE_H
#define SP_FORMAT_ATOMIC_FILE_H

#include <sys/types.h>
#include <time.h>

#include "scope_profiler/results.h"

/* What was at a target path at some moment: commit keeps both files when
 * somebody else wrote the target after that moment (two runs, one path). */
typedef struct sp_target_id {
    int taken;  /* 0: no check */
    int exists; /* a regular file was there */
    dev_t dev;
    ino_t ino;
    struct timespec mtime;
    off_t size;
} sp_target_id;

/* Records what is at path now (following symbolic links). */
void sp_target_id_take(const char *path, sp_target_id *id);

/* Creates an empty temporary file for `path`; returns its name (owned) or NULL. */
char *sp_atomic_begin(const char *path, sp_error *err);

/*
 * Puts the temporary file's bytes at `path` (by rename or by copying them
 * through) and removes the temporary file either way. With `since` taken and
 * the target written by somebody else after it, the target is left alone and
 * the data goes to a free name beside it (NAME.2.EXT, ...), with a warning on
 * stderr; *saved_as (when not NULL) then receives that name (malloc'ed).
 */
sp_status sp_atomic_commit_checked(const char *tmp_path, const char *path,
                                   const sp_target_id *since, char **saved_as, sp_error *err);
sp_status sp_atomic_commit(const char *tmp_path, const char *path, sp_error *err);

/* Removes the temporary file. */
void sp_atomic_abort(const char *tmp_path);

/* The status for an errno from creating or writing a file. */
sp_status sp_status_from_errno(int error_number);

#endif
