#include "present/text_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "format/atomic_file.h"

/* mkdir -p of the directory part of path. */
static sp_status make_parents(const char *path, sp_error *err) {
    char *dir = strdup(path);
    if (!dir)
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        free(dir);
        return SP_OK;
    }
    *slash = '\0';
    sp_status st = SP_OK;
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            st = sp_error_set(err, sp_status_from_errno(e),
                              "cannot write %s: cannot create directory %s: %s", path, dir,
                              strerror(e));
            break;
        }
        *p = saved;
        if (!saved) break;
    }
    free(dir);
    return st;
}

sp_status sp_write_text_stream(const char *path, sp_text_producer produce, void *ctx,
                               sp_error *err) {
    if (!path || !*path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no output path given");
    sp_status st = make_parents(path, err);
    if (st) return st;
    char *tmp = sp_atomic_begin(path, err);
    if (!tmp) return err ? err->status : SP_ERR_IO;
    FILE *f = fopen(tmp, "wb");
    int e = errno;
    if (f) {
        errno = 0;
        st = produce(ctx, f, err);
        if (st == SP_OK && (ferror(f) || fflush(f) != 0))
            e = errno ? errno : EIO;
        else
            e = 0;
        if (fclose(f) != 0 && !e && st == SP_OK) e = errno ? errno : EIO;
    }
    if (!f || e || st != SP_OK) {
        sp_atomic_abort(tmp);
        free(tmp);
        if (st != SP_OK) return st;
        return sp_error_set(err, sp_status_from_errno(e), "cannot write %s: %s", path, strerror(e));
    }
    st = sp_atomic_commit(tmp, path, err);
    free(tmp);
    return st;
}

typedef struct whole_text {
    const char *text;
    size_t len;
} whole_text;

static sp_status write_whole(void *ctx, FILE *f, sp_error *err) {
    (void)err;
    const whole_text *t = ctx;
    fwrite(t->text, 1, t->len, f); /* a short write shows in ferror() */
    return SP_OK;
}

sp_status sp_write_text_file(const char *path, const char *text, size_t len, sp_error *err) {
    whole_text t = {text, len};
    return sp_write_text_stream(path, write_whole, &t, err);
}
