#include "format/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "format/publish.h"

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

/* How a target is written. */
typedef enum target_kind {
    TARGET_REPLACE, /* a regular file or nothing: atomic rename (of `resolved`) */
    TARGET_THROUGH, /* stdout, a FIFO, a device: copy into it */
    TARGET_REFUSED,
} target_kind;

typedef struct target {
    target_kind kind;
    char *resolved; /* REPLACE: the path to rename over (symbolic links followed) */
    int stdout_fd;  /* THROUGH: write to descriptor 1 rather than opening the path */
} target;

static int is_descriptor_alias(const char *path) {
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 ||
           strcmp(path, "/proc/self/fd/1") == 0 || strcmp(path, "/dev/fd/1") == 0;
}

/* Follows symbolic links by hand, so that a dangling one is seen as such. */
static char *follow_links(const char *path, sp_error *err) {
    char *current = strdup(path);
    for (int hops = 0; current && hops < 40; hops++) {
        struct stat sb;
        if (lstat(current, &sb) != 0 || !S_ISLNK(sb.st_mode)) return current;
        char link[PATH_MAX];
        ssize_t n = readlink(current, link, sizeof link - 1);
        if (n < 0) break;
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = strdup(link);
        } else {
            char *dir = directory_of(current);
            size_t size = (dir ? strlen(dir) : 0) + strlen(link) + 2;
            next = dir ? malloc(size) : NULL;
            if (next) snprintf(next, size, "%s/%s", dir, link);
            free(dir);
        }
        if (next) {
            struct stat target_sb;
            if (lstat(next, &target_sb) != 0 && errno == ENOENT) {
                sp_error_set(err, SP_ERR_IO,
                             "cannot write %s: it is a symbolic link to %s, which does not exist; "
                             "create the file or remove the link",
                             path, link);
                free(next);
                free(current);
                return NULL;
            }
        }
        free(current);
        current = next;
    }
    if (current)
        sp_error_set(err, SP_ERR_IO,
                     "cannot write %s: too many levels of symbolic links; remove the loop", path);
    else
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
    free(current);
    return NULL;
}

static void classify(const char *path, target *t, sp_error *err) {
    memset(t, 0, sizeof *t);
    t->kind = TARGET_REFUSED;
    if (is_descriptor_alias(path)) {
        t->kind = TARGET_THROUGH;
        t->stdout_fd = 1;
        return;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode) ||
                                 S_ISBLK(sb.st_mode))) {
        t->kind = TARGET_THROUGH;
        return;
    }
    t->resolved = follow_links(path, err);
    if (!t->resolved) return;
    if (stat(t->resolved, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        sp_error_set(err, SP_ERR_IO, "cannot write %s: it is %s, not a regular file; choose a file name",
                     path, S_ISDIR(sb.st_mode) ? "a directory" : "a special file (a socket?)");
        free(t->resolved);
        t->resolved = NULL;
        return;
    }
    t->kind = TARGET_REPLACE;
}

void sp_target_id_take(const char *path, sp_target_id *id) {
    memset(id, 0, sizeof *id);
    id->taken = 1;
    struct stat sb;
    if (is_descriptor_alias(path) || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
    id->exists = 1;
    id->dev = sb.st_dev;
    id->ino = sb.st_ino;
    id->mtime = sb.st_mtim;
    id->size = sb.st_size;
}

/* RLIMIT_FSIZE: by default the kernel kills a process that writes past it
 * (SIGXFSZ); while a file of ours is open the write fails with EFBIG instead,
 * so the temporary file is removed and the status says the disk is full. A
 * handler the program installed itself is left alone. */
static int size_guard_depth;
static struct sigaction size_saved;

static void size_guard_on(void) {
    if (size_guard_depth++ > 0) return;
    sigaction(SIGXFSZ, NULL, &size_saved);
    if (size_saved.sa_handler == SIG_DFL) signal(SIGXFSZ, SIG_IGN);
}

static void size_guard_off(void) {
    if (size_guard_depth == 0 || --size_guard_depth > 0) return;
    sigaction(SIGXFSZ, &size_saved, NULL);
}

static char *staging_name(const char *dir, const char *base) {
    size_t n = strlen(dir) + strlen(base) + 32;
    char *tmp = malloc(n);
    if (tmp) snprintf(tmp, n, "%s/.%s.tmp-XXXXXX", dir, base);
    return tmp;
}

char *sp_atomic_begin(const char *path, sp_error *err) {
    target t;
    classify(path, &t, err);
    if (t.kind == TARGET_REFUSED) return NULL;
    const char *where = t.kind == TARGET_REPLACE ? t.resolved : path;
    char *copy = strdup(where);
    char *dir = NULL;
    if (t.kind == TARGET_THROUGH) {
        const char *env = getenv("TMPDIR");
        dir = strdup(env && *env ? env : "/tmp");
    } else {
        dir = directory_of(where);
    }
    char *tmp = copy && dir ? staging_name(dir, basename(copy)) : NULL;
    free(t.resolved);
    if (!tmp) {
        free(copy);
        free(dir);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
        return NULL;
    }
    size_guard_on();
    int fd = mkstemp(tmp);
    if (fd < 0) {
        size_guard_off();
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

/* Copies the staged bytes into a FIFO, a device or stdout; never creates,
 * truncates or removes the target. */
static sp_status copy_through(const char *tmp_path, const char *path, const target *t,
                              sp_error *err) {
    int in = open(tmp_path, O_RDONLY);
    int out = t->stdout_fd ? STDOUT_FILENO : open(path, O_WRONLY | O_NOCTTY);
    int e = in < 0 || out < 0 ? errno : 0;
    char buf[65536];
    while (!e) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            e = n < 0 ? errno : 0;
            break;
        }
        for (ssize_t done = 0; done < n && !e;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) e = w < 0 ? errno : EIO;
            else done += w;
        }
    }
    if (in >= 0) close(in);
    if (out >= 0 && !t->stdout_fd) close(out);
    unlink(tmp_path);
    if (!e) return SP_OK;
    sp_status st = sp_status_from_errno(e);
    return sp_error_set(err, st, "cannot write %s: %s; %s", path, strerror(e), advice(st));
}

/* NAME.2.EXT, NAME.3.EXT, ...: the first free one, claimed atomically by link(). */
static char *keep_beside(const char *tmp_path, const char *path) {
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : n;
    char *name = malloc(n + 24);
    for (int i = 2; name && i < 1000; i++) {
        snprintf(name, n + 24, "%.*s.%d%s", (int)stem, path, i, path + stem);
        if (link(tmp_path, name) == 0) {
            unlink(tmp_path);
            return name;
        }
        if (errno != EEXIST) break;
    }
    free(name);
    return NULL;
}

/* Another process wrote the target during this run: ours goes beside it. */
static sp_status keep_both(const char *tmp_path, const char *path, const char *resolved,
                           char **saved_as, sp_error *err) {
    char *other = keep_beside(tmp_path, resolved);
    if (!other) {
        unlink(tmp_path);
        return sp_error_set(err, SP_ERR_IO,
                            "cannot write %s: another process wrote it during this run and no "
                            "free name was found beside it",
                            path);
    }
    fprintf(stderr,
            "scope-profiler: warning: %s was written by another process during this run; "
            "keeping both: this one is saved as %s\n",
            path, other);
    if (saved_as)
        *saved_as = other;
    else
        free(other);
    return SP_OK;
}

static sp_status commit(const char *tmp_path, const char *path, const sp_target_id *since,
                        char **saved_as, sp_error *err);

sp_status sp_atomic_commit_checked(const char *tmp_path, const char *path,
                                   const sp_target_id *since, char **saved_as, sp_error *err) {
    sp_status st = commit(tmp_path, path, since, saved_as, err);
    size_guard_off();
    return st;
}

static sp_status commit(const char *tmp_path, const char *path, const sp_target_id *since,
                        char **saved_as, sp_error *err) {
    if (saved_as) *saved_as = NULL;
    target t;
    classify(path, &t, err);
    if (t.kind == TARGET_REFUSED) {
        unlink(tmp_path);
        return err ? err->status : SP_ERR_IO;
    }
    if (t.kind == TARGET_THROUGH) return copy_through(tmp_path, path, &t, err);
    sp_status st = SP_OK;
    if (fsync_path(tmp_path, O_RDONLY) != 0) {
        int e = errno;
        st = sp_status_from_errno(e);
        unlink(tmp_path);
        sp_error_set(err, st, "cannot write %s: %s; %s", path, strerror(e), advice(st));
    } else {
        sp_publish_result r = SP_PUBLISH_ERROR;
        if (since && since->taken) {
            r = sp_publish(tmp_path, t.resolved, since);
        } else {
            sp_publish_inherit(tmp_path, t.resolved);
            r = rename(tmp_path, t.resolved) == 0 ? SP_PUBLISHED : SP_PUBLISH_ERROR;
        }
        if (r == SP_PUBLISH_TAKEN)
            st = keep_both(tmp_path, path, t.resolved, saved_as, err);
        else if (r == SP_PUBLISH_ERROR) {
            int e = errno;
            st = sp_status_from_errno(e);
            unlink(tmp_path);
            sp_error_set(err, st, "cannot write %s: %s; %s", path, strerror(e), advice(st));
        }
    }
    if (!st) {
        char *dir = directory_of(t.resolved);
        if (dir) fsync_path(dir, O_RDONLY | O_DIRECTORY); /* best effort: the data is in place */
        free(dir);
    }
    free(t.resolved);
    return st;
}

sp_status sp_atomic_commit(const char *tmp_path, const char *path, sp_error *err) {
    return sp_atomic_commit_checked(tmp_path, path, NULL, NULL, err);
}

void sp_atomic_abort(const char *tmp_path) {
    if (!tmp_path) return;
    unlink(tmp_path);
    size_guard_off();
}
