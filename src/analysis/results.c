/* The results object: lifecycle, identity (path, labels, schema) and repr. */
#include <stdlib.h>
#include <string.h>

#include "analysis/clock_alignment.h"
#include "analysis/internal.h"
#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "common/error.h"
#include "analysis/results_build.h"

/* The path as Python's pathlib prints it: "./a//b/" -> "a/b", "" -> ".". */
static char *pathlib_text(const char *path) {
    sp_textbuf b = {0};
    if (!path) path = "";
    size_t len = strlen(path), i = 0;
    if (len >= 2 && path[0] == '/' && path[1] == '/' && (len == 2 || path[2] != '/'))
        sp_textbuf_append(&b, "/"); /* POSIX keeps exactly two leading slashes */
    if (len && path[0] == '/') sp_textbuf_append(&b, "/");
    int need_sep = 0;
    while (i < len) {
        while (i < len && path[i] == '/')
            i++;
        size_t start = i;
        while (i < len && path[i] != '/')
            i++;
        size_t n = i - start;
        if (n == 0 || (n == 1 && path[start] == '.')) continue;
        if (need_sep) sp_textbuf_append(&b, "/");
        sp_textbuf_append_n(&b, path + start, n);
        need_sep = 1;
    }
    if (b.len == 0) sp_textbuf_append(&b, ".");
    return sp_textbuf_take(&b);
}

/* The last component of a pathlib text ("" for "/"). */
static const char *path_name(const char *text) {
    const char *slash = strrchr(text, '/');
    const char *name = slash ? slash + 1 : text;
    return strcmp(name, ".") == 0 ? "" : name;
}

static char *path_stem(const char *text) {
    const char *name = path_name(text);
    size_t len = strlen(name);
    const char *dot = strrchr(name, '.');
    if (dot && dot > name && (size_t)(dot - name) < len - 1) len = (size_t)(dot - name);
    char *stem = malloc(len + 1);
    if (stem) {
        memcpy(stem, name, len);
        stem[len] = '\0';
    }
    return stem;
}

/* str(value) when the metadata value is truthy (§2 label), else NULL in *out. */
static sp_status label_text(const sp_meta_entry *e, char **out) {
    *out = NULL;
    if (!e) return SP_OK;
    sp_textbuf b = {0};
    switch (e->type) {
    case SP_META_INT:
        if (e->i == 0) return SP_OK;
        sp_textbuf_printf(&b, "%lld", (long long)e->i);
        break;
    case SP_META_FLOAT:
        if (e->f == 0.0) return SP_OK;
        sp_py_float_append(&b, e->f);
        break;
    case SP_META_STRING:
        if (!e->s || !e->s[0]) return SP_OK;
        sp_textbuf_append(&b, e->s);
        break;
    case SP_META_STRING_LIST:
        if (e->list_len == 0) return SP_OK;
        sp_py_str_list_repr(&b, (const char *const *)e->list, e->list_len);
        break;
    }
    *out = sp_textbuf_take(&b);
    return *out ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

static sp_status build_identity(sp_results *r) {
    r->path_text = pathlib_text(r->m.path);
    if (!r->path_text) return SP_ERR_OUT_OF_MEMORY;
    sp_status st = label_text(sp_model_meta_find(&r->m, "label"), &r->label);
    if (st != SP_OK) return st;
    r->display_label = r->label ? sp_strdup(r->label) : path_stem(r->path_text);
    return r->display_label ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_results *sp_results_adopt(sp_model *m, sp_error *err) {
    sp_results *r = calloc(1, sizeof *r);
    if (!r) {
        sp_model_clear(m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    r->m = *m;
    memset(m, 0, sizeof *m);
    sp_align_rank_clocks(&r->m);
    sp_status st = build_identity(r);
    if (st == SP_OK) st = sp_results_build(r);
    if (st != SP_OK) {
        sp_error_set(err, st, "%s: out of memory while preparing the results",
                     r->m.path ? r->m.path : "profile");
        sp_results_free(r);
        return NULL;
    }
    return r;
}

const sp_model *sp_results_model(const sp_results *r) {
    return &r->m;
}

void sp_results_free(sp_results *r) {
    if (!r) return;
    sp_results_build_free(r);
    sp_excluded_time_free(r->excluded);
    free(r->lanes);
    free(r->name_slots);
    free(r->path_text);
    free(r->label);
    free(r->display_label);
    sp_model_clear(&r->m);
    free(r);
}

const char *sp_results_path(const sp_results *r) {
    return r->m.path ? r->m.path : "";
}

const char *sp_results_path_text(const sp_results *r) {
    return r->path_text;
}

const char *sp_results_label(const sp_results *r) {
    return r->label;
}

const char *sp_results_display_label(const sp_results *r) {
    return r->display_label;
}

int sp_results_schema(const sp_results *r) {
    return (int)r->m.schema;
}

int sp_results_has_events(const sp_results *r) {
    return sp_columnar(r);
}

int sp_results_describe(const sp_results *r, char *buf, size_t size) {
    sp_textbuf b = {0};
    sp_textbuf_append(&b, "<ProfilingResults ");
    sp_py_str_repr(&b, path_name(r->path_text));
    sp_textbuf_printf(&b, ": %zu region(s), %zu rank(s)>", r->m.num_regions, r->num_ranks);
    const char *text = sp_textbuf_str(&b);
    int needed = text ? (int)b.len : -1;
    if (text && size) {
        size_t n = b.len < size - 1 ? b.len : size - 1;
        memcpy(buf, text, n);
        buf[n] = '\0';
    }
    sp_textbuf_free(&b);
    return needed;
}
