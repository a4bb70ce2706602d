#include "present/py_path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text_buffer.h"

/* Splits an absolute normalised path into components (in place). */
static size_t split(char *abs, char **parts, size_t max) {
    char *save = NULL;
    size_t n = 0;
    for (char *tok = strtok_r(abs, "/", &save); tok && n < max; tok = strtok_r(NULL, "/", &save))
        parts[n++] = tok;
    return n;
}

char *sp_py_abspath_in(const char *path, const char *cwd) {
    sp_textbuf joined = SP_TEXTBUF_INIT;
    if (path[0] != '/') {
        sp_textbuf_append(&joined, cwd);
        sp_textbuf_putc(&joined, '/');
    }
    sp_textbuf_append(&joined, path);
    char *text = sp_textbuf_take(&joined);
    if (!text) return NULL;
    size_t max = strlen(text) / 2 + 2;
    char **parts = malloc(max * sizeof *parts);
    if (!parts) {
        free(text);
        return NULL;
    }
    size_t n = split(text, parts, max), kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(parts[i], ".")) continue;
        if (!strcmp(parts[i], "..")) {
            if (kept) kept--;
            continue;
        }
        parts[kept++] = parts[i];
    }
    sp_textbuf out = SP_TEXTBUF_INIT;
    if (!kept) sp_textbuf_putc(&out, '/');
    for (size_t i = 0; i < kept; i++) {
        sp_textbuf_putc(&out, '/');
        sp_textbuf_append(&out, parts[i]);
    }
    free(parts);
    free(text);
    return sp_textbuf_take(&out);
}

char *sp_py_relpath_in(const char *path, const char *start, const char *cwd) {
    char *a = sp_py_abspath_in(path, cwd);
    char *b = sp_py_abspath_in(start, cwd);
    char **pa = NULL, **pb = NULL;
    char *result = NULL;
    if (!a || !b) goto done;
    size_t ma = strlen(a) / 2 + 2, mb = strlen(b) / 2 + 2;
    pa = malloc(ma * sizeof *pa);
    pb = malloc(mb * sizeof *pb);
    if (!pa || !pb) goto done;
    size_t na = split(a, pa, ma), nb = split(b, pb, mb), common = 0;
    while (common < na && common < nb && !strcmp(pa[common], pb[common]))
        common++;
    sp_textbuf out = SP_TEXTBUF_INIT;
    for (size_t i = common; i < nb; i++)
        sp_textbuf_append(&out, i > common ? "/.." : "..");
    for (size_t i = common; i < na; i++) {
        if (out.len) sp_textbuf_putc(&out, '/');
        sp_textbuf_append(&out, pa[i]);
    }
    if (!out.len) sp_textbuf_putc(&out, '.');
    result = sp_textbuf_take(&out);
done:
    free(pa);
    free(pb);
    free(a);
    free(b);
    return result;
}

static char *current_dir(void) {
    char *cwd = getcwd(NULL, 0);
    if (!cwd) cwd = strdup("/"); /* the cwd was removed: treat paths as relative to / */
    return cwd;
}

char *sp_py_relpath(const char *path) {
    char *cwd = current_dir();
    if (!cwd) return NULL;
    char *r = sp_py_relpath_in(path, ".", cwd);
    free(cwd);
    return r;
}

char *sp_py_resolve(const char *path) {
    char *real = realpath(path, NULL);
    if (real) return real;
    char *cwd = current_dir();
    if (!cwd) return NULL;
    char *r = sp_py_abspath_in(path, cwd);
    free(cwd);
    return r;
}

char *sp_py_shlex_quote(const char *s) {
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_@%+=:,./-";
    if (*s && s[strspn(s, safe)] == '\0') return strdup(s);
    sp_textbuf out = SP_TEXTBUF_INIT;
    sp_textbuf_putc(&out, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            sp_textbuf_append(&out, "'\"'\"'");
        else
            sp_textbuf_putc(&out, *p);
    }
    sp_textbuf_putc(&out, '\'');
    return sp_textbuf_take(&out);
}
