#include "format/publish.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

void sp_publish_inherit(const char *tmp_path, const char *target) {
    struct stat sb;
    if (stat(target, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
    chmod(tmp_path, sb.st_mode & 07777);
    if (chown(tmp_path, sb.st_uid, sb.st_gid) != 0) { /* not ours to give: the group alone */
        if (chown(tmp_path, (uid_t)-1, sb.st_gid) != 0) return;
    }
    chmod(tmp_path, sb.st_mode & 07777); /* chown clears set-id bits */
}

/* tmp at target only if nothing is there: link(), else renameat2(NOREPLACE). */
static sp_publish_result claim_new(const char *tmp_path, const char *target) {
    if (link(tmp_path, target) == 0) {
        unlink(tmp_path);
        return SP_PUBLISHED;
    }
    if (errno == EEXIST) return SP_PUBLISH_TAKEN;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK && errno != ENOSYS)
        return SP_PUBLISH_ERROR;
#ifdef SYS_renameat2
    if (syscall(SYS_renameat2, AT_FDCWD, tmp_path, AT_FDCWD, target, RENAME_NOREPLACE) == 0)
        return SP_PUBLISHED;
    if (errno == EEXIST) return SP_PUBLISH_TAKEN;
    if (errno != EINVAL && errno != ENOSYS) return SP_PUBLISH_ERROR;
#endif
    /* no atomic claim on this file system: the check stays a check */
    if (access(target, F_OK) == 0) return SP_PUBLISH_TAKEN;
    return rename(tmp_path, target) == 0 ? SP_PUBLISHED : SP_PUBLISH_ERROR;
}

static int same_file(const struct stat *sb, const sp_target_id *id) {
    return S_ISREG(sb->st_mode) && sb->st_dev == id->dev && sb->st_ino == id->ino &&
           sb->st_size == id->size && sb->st_mtim.tv_sec == id->mtime.tv_sec &&
           sb->st_mtim.tv_nsec == id->mtime.tv_nsec;
}

/* Replaces the file seen at sp_setup, holding flock() on it: of two
 * processes replacing it, the second finds a different file under the lock. */
static sp_publish_result replace_seen(const char *tmp_path, const char *target,
                                      const sp_target_id *since) {
    for (int attempt = 0; attempt < 100; attempt++) {
        int fd = open(target, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) {
            if (errno != ENOENT) return SP_PUBLISH_ERROR;
            return claim_new(tmp_path, target); /* removed since sp_setup: free again */
        }
        struct stat held, named;
        /* a file system without locks (ENOLCK) is left with the check alone */
        if ((flock(fd, LOCK_EX) != 0 && errno != ENOLCK && errno != EINVAL) ||
            fstat(fd, &held) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return SP_PUBLISH_ERROR;
        }
        if (stat(target, &named) != 0 || named.st_ino != held.st_ino ||
            named.st_dev != held.st_dev) {
            close(fd); /* replaced while we waited: look at the new one */
            continue;
        }
        sp_publish_result r = SP_PUBLISH_TAKEN;
        if (same_file(&held, since)) {
            sp_publish_inherit(tmp_path, target);
            r = rename(tmp_path, target) == 0 ? SP_PUBLISHED : SP_PUBLISH_ERROR;
        }
        int e = errno;
        close(fd); /* the lock goes with it */
        errno = e;
        return r;
    }
    errno = EBUSY;
    return SP_PUBLISH_ERROR;
}

sp_publish_result sp_publish(const char *tmp_path, const char *target, const sp_target_id *since) {
    return since->exists ? replace_seen(tmp_path, target, since) : claim_new(tmp_path, target);
}
