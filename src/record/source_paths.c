#include "record/source_paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/source_capture.h"

/* dir/file, or NULL. */
static char *joined(const char *dir, const char *file) {
    if (!dir || !*dir) return NULL;
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* The directory of the running program, or NULL. */
static char *program_dir(void) {
    char *exe = realpath("/proc/self/exe", NULL);
    if (!exe) return NULL;
    char *slash = strrchr(exe, '/');
    if (slash && slash != exe) *slash = '\0';
    return exe;
}

typedef struct places {
    const char *setup_cwd;
    char *program_dir;
    char *cwd_now;
} places;

/* The canonical path of an existing, readable file, or NULL. */
static char *found_at(const char *path) {
    if (!path || access(path, R_OK) != 0) return NULL;
    return realpath(path, NULL);
}

static char *locate(const char *file, const places *p) {
    if (file[0] == '/') return found_at(file);
    const char *dirs[] = {p->setup_cwd, p->program_dir, p->cwd_now};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char *candidate = joined(dirs[i], file);
        char *hit = found_at(candidate);
        free(candidate);
        if (hit) return hit;
    }
    return NULL;
}

/* a relative to the directory dir (both absolute, normalised): Python's
 * os.path.relpath, e.g. "../lib/x.c"; NULL when out of memory. */
static char *relative_path(const char *a, const char *dir) {
    /* the common leading components */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        int a_end = a[i] == '\0' || a[i] == '/';
        int d_end = dir[i] == '\0' || dir[i] == '/';
        if (a_end && d_end) common = i;
        if (a[i] != dir[i] || !a[i] || !dir[i]) break;
    }
    size_t ups = 0;
    for (const char *s = dir + common; *s; s++)
        if (*s == '/' && s[1] && s[1] != '/') ups++;
    const char *rest = a + common;
    while (*rest == '/')
        rest++;
    size_t n = ups * 3 + strlen(rest) + 2;
    char *out = malloc(n);
    if (!out) return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < ups; i++)
        strcat(out, i + 1 < ups || *rest ? "../" : "..");
    strcat(out, *rest || ups ? rest : ".");
    return out;
}

/* Replaces *slot with value (owned) when value is not NULL. */
static void take(char **slot, char *value) {
    if (!value) return;
    free(*slot);
    *slot = value;
}

static void report_missing(size_t missing, const char *file, const places *p) {
    if (file[0] == '/') {
        fprintf(stderr,
                "scope-profiler: source of %zu region(s) not captured: %s cannot be read (moved "
                "or removed since the build?)\n",
                missing, file);
        return;
    }
    fprintf(stderr,
            "scope-profiler: source of %zu region(s) not captured: %s is relative to the "
            "compile directory and is not under %s (the working directory at sp_setup)%s%s%s; "
            "run from the compile directory, or compile with absolute source paths (CMake "
            "passes them)\n",
            missing, file, p->setup_cwd ? p->setup_cwd : "(unknown)",
            p->program_dir ? " or " : "", p->program_dir ? p->program_dir : "",
            p->program_dir ? " (the program's directory)" : "");
}

sp_status sp_source_paths_apply(sp_model *m, const sp_config *cfg) {
    places p = {cfg->setup_cwd, program_dir(), getcwd(NULL, 0)};
    size_t missing = 0;
    char *first_missing = NULL; /* a copy: the row's path is replaced below */
    sp_status st = SP_OK;
    for (size_t i = 0; i < m->num_rows && !st; i++) {
        sp_model_row *row = &m->rows[i];
        if (!row->source_file || !*row->source_file) continue;
        char *where = locate(row->source_file, &p);
        if (cfg->capture_region_source) {
            char *text = sp_source_capture(where ? where : row->source_file, (int)row->source_line);
            if (text)
                take(&row->source_text, text);
            else if (!missing++ && !(first_missing = sp_strdup(row->source_file)))
                st = SP_ERR_OUT_OF_MEMORY;
        }
        /* a file not found keeps the path as recorded: nothing to resolve it with */
        char *stored = NULL;
        if (where && cfg->metadata_detail == SP_METADATA_MINIMAL && p.setup_cwd)
            stored = relative_path(where, p.setup_cwd);
        else if (where)
            stored = sp_strdup(where);
        if (where && !stored && !st) st = SP_ERR_OUT_OF_MEMORY;
        take(&row->source_file, stored);
        free(where);
    }
    if (!st && cfg->capture_region_source)
        st = sp_model_meta_int(m, "capture_region_source", 1);
    if (missing && first_missing) report_missing(missing, first_missing, &p);
    free(first_missing);
    free(p.program_dir);
    free(p.cwd_now);
    return st;
}
