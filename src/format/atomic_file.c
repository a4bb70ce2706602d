#include "format/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

sp_status sp_status_from_errno(int error_number) {
    switch (error_number) {
    case ENOENT:
    case ENOTDIR:
        return SP_ERR_NO_DIRECTORY;
    case EACCES:
    case EPERM:
    case EROFS:
        return SP_ERR_PERMISSION;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
        return SP_ERR_DISK_FULL;
    default:
        return SP_ERR_IO;
    }
}

/* The advice that follows a failure, by status. */
static const char *advice(sp_status st) {
    switch (st) {
    case SP_ERR_NO_DIRECTORY:
        return "create the directory or choose another path";
    case SP_ERR_PERMISSION:
        return "choose a writable directory";
    case SP_ERR_DISK_FULL:
        return "free some space or write elsewhere";
    default:
        return "check the path and the file system";
    }
}

static char *directory_of(const char *path) {
    char *copy = strdup(path);
    if (!copy) return NULL;
    char *dir = strdup(dirname(copy));
    free(copy);
    return dir;
}

char *sp_atomic_begin(const char *path, sp_error *err) {
    char *copy = strdup(path);
    char *dir = directory_of(path);
    char *tmp = NULL;
    if (!copy || !dir) goto oom;
    const char *base = basename(copy);
    size_t n = strlen(dir) + strlen(base) + 32;
    tmp = malloc(n);
    if (!tmp) goto oom;
    snprintf(tmp, n, "%s/.%s.tmp-XXXXXX", dir, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        sp_status st = sp_status_from_errno(e);
        sp_error_set(err, st, "cannot write %s: %s in directory %s; %s", path, strerror(e), dir,
                     advice(st));
        free(tmp);
        tmp = NULL;
    } else {
        /* mkstemp creates 0600; give the profile the permissions of any new file. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
        close(fd);
    }
    free(copy);
    free(dir);
    return tmp;
oom:
    free(copy);
    free(dir);
    sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
    return NULL;
}

static int fsync_path(const char *path, int flags) {
    int fd = open(path, flags);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

sp_status sp_atomic_commit(const char *tmp_path, const char *path, sp_error *err) {
    if (fsync_path(tmp_path, O_RDONLY) != 0 || rename(tmp_path, path) != 0) {
        int e = errno;
        sp_status st = sp_status_from_errno(e);
        unlink(tmp_path);
        return sp_error_set(err, st, "cannot write %s: %s; %s", path, strerror(e), advice(st));
    }
    char *dir = directory_of(path);
    if (dir) {
        fsync_path(dir, O_RDONLY | O_DIRECTORY); /* best effort: the rename is done */
        free(dir);
    }
    return SP_OK;
}

void sp_atomic_abort(const char *tmp_path) {
    if (tmp_path) unlink(tmp_path);
}
