/*
 * Putting a finished temporary file at its target path so that two processes
 * finishing at the same moment can never both claim it (issue 22 item 2).
 * A new path is claimed with link() (or renameat2(RENAME_NOREPLACE) where the
 * file system has no hard links): it fails with EEXIST for the second one.
 * An existing file is replaced under flock() of the file that is there, after
 * checking, under the lock, that it is still the one seen at sp_setup.
 */
#ifndef SP_FORMAT_PUBLISH_H
#define SP_FORMAT_PUBLISH_H

#include "format/atomic_file.h"

typedef enum sp_publish_result {
    SP_PUBLISHED = 0, /* tmp is at the target now (and gone under its own name) */
    SP_PUBLISH_TAKEN, /* somebody else wrote the target since `since`: nothing done */
    SP_PUBLISH_ERROR  /* errno says why; nothing done */
} sp_publish_result;

/* Puts tmp_path at target unless the target changed since `since` (taken). */
sp_publish_result sp_publish(const char *tmp_path, const char *target, const sp_target_id *since);

/* Gives tmp_path the mode, and where allowed the owner, of the file at
 * target (a replaced file keeps its permissions and owner). */
void sp_publish_inherit(const char *tmp_path, const char *target);

#endif
