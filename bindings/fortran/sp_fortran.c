/*
 * The C side of the Fortran module: entry points taking Fortran strings
 * (pointer and length, no terminator) and a per-thread cache for the
 * by-name calls keyed by (pointer, length), so that a literal name costs a
 * lookup in a small table, not a copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp_fortran_options.h"

/* Prototypes: the module declares these with bind(C). */
sp_status sp_f_setup(const sp_f_setup_args *args);
sp_status sp_f_finalize(int quiet);
sp_region_t sp_f_region(const char *name, long len, const char *file, long file_len, int line);
void sp_f_end(sp_region_t region);
void sp_f_end_at(sp_region_t region, const char *file, long file_len, int line);
void sp_f_begin_name(const char *name, long len, const char *file, long file_len, int line);
void sp_f_end_name(const char *name, long len, const char *file, long file_len, int line);
sp_status sp_f_set_thread_name(const char *name, long len);

sp_status sp_f_setup(const sp_f_setup_args *args) {
    sp_options opt;
    char *file, *label;
    sp_status st = sp_f_options(args, &opt, &file, &label) ? sp_setup(&opt) : SP_ERR_OUT_OF_MEMORY;
    free(file);
    free(label);
    return st;
}

sp_status sp_f_finalize(int quiet) {
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = quiet;
    return sp_finalize(&fo);
}

/* A terminated copy in buf when it fits, else on the heap (*heap, to free); NULL when absent. */
static const char *terminated(const char *s, long len, char *buf, size_t size, char **heap) {
    *heap = NULL;
    if (!s || len < 0) return NULL;
    char *dst = buf;
    if ((size_t)len >= size && !(dst = *heap = malloc((size_t)len + 1))) return NULL;
    memcpy(dst, s, (size_t)len);
    dst[len] = '\0';
    return dst;
}

sp_region_t sp_f_region(const char *name, long len, const char *file, long file_len, int line) {
    if (len <= 0) return SP_REGION_NONE;
    char name_buf[256], file_buf[512], *name_heap, *file_heap;
    const char *n = terminated(name, len, name_buf, sizeof name_buf, &name_heap);
    const char *f = terminated(file, file_len, file_buf, sizeof file_buf, &file_heap);
    sp_region_t region = n ? sp_region_at(n, f, line) : SP_REGION_NONE;
    free(name_heap);
    free(file_heap);
    return region;
}

void sp_f_end(sp_region_t region) {
    sp_end_at(region, NULL, 0);
}

void sp_f_end_at(sp_region_t region, const char *file, long file_len, int line) {
    if (!SP_INTERNAL_ACTIVE_()) return;
    char buf[512], *heap;
    sp_end_fn(region, terminated(file, file_len, buf, sizeof buf, &heap), line);
    free(heap);
}

/* --- by name ----------------------------------------------------------------- */

#define CACHE_SLOTS 64 /* per thread; a miss only costs an interning */

typedef struct name_entry {
    const char *key;
    long len;
    sp_region_t region;
} name_entry;

static __thread name_entry name_cache[CACHE_SLOTS];

static int same_name(sp_region_t region, const char *name, long len) {
    const char *known = sp_region_name(region);
    return known && strncmp(known, name, (size_t)len) == 0 && known[len] == '\0';
}

/* The handle of a Fortran name (interned on a miss: an end of an unknown name
 * is then reported under it, as sp_end_name does). */
static sp_region_t lookup(const char *name, long len, const char *file, long file_len, int line) {
    size_t slot = (((uintptr_t)name * 0x9E3779B97F4A7C15ull) >> 40) % CACHE_SLOTS;
    name_entry *e = &name_cache[slot];
    if (e->key == name && e->len == len && same_name(e->region, name, len)) return e->region;
    sp_region_t region = sp_f_region(name, len, file, file_len, line);
    if (region != SP_REGION_NONE) {
        e->key = name;
        e->len = len;
        e->region = region;
    }
    return region;
}

void sp_f_begin_name(const char *name, long len, const char *file, long file_len, int line) {
    if (SP_INTERNAL_ACTIVE_()) sp_begin_fn(lookup(name, len, file, file_len, line));
}

void sp_f_end_name(const char *name, long len, const char *file, long file_len, int line) {
    if (!SP_INTERNAL_ACTIVE_()) return;
    sp_region_t region = lookup(name, len, file, file_len, line);
    char buf[512], *heap;
    sp_end_fn(region, terminated(file, file_len, buf, sizeof buf, &heap), line);
    free(heap);
}

sp_status sp_f_set_thread_name(const char *name, long len) {
    char buf[256], *heap;
    const char *n = terminated(name, len, buf, sizeof buf, &heap);
    sp_status st = n ? sp_set_thread_name(n) : SP_ERR_INVALID_ARGUMENT;
    free(heap);
    return st;
}

/* sp_set_metadata for the module's generic: kind 0 text, 1 integer, 2 real. */
sp_status sp_f_set_metadata(const char *key, long key_len, int kind, const char *text,
                            long text_len, int64_t integer, double real);
sp_status sp_f_region_add_tag(sp_region_t region, const char *tag, long len);

sp_status sp_f_set_metadata(const char *key, long key_len, int kind, const char *text,
                            long text_len, int64_t integer, double real) {
    char key_buf[80], text_buf[256], *key_heap, *text_heap = NULL;
    const char *k = terminated(key, key_len, key_buf, sizeof key_buf, &key_heap);
    sp_status st = SP_ERR_INVALID_ARGUMENT;
    if (k && kind == 1) st = sp_set_metadata_int(k, integer);
    if (k && kind == 2) st = sp_set_metadata_double(k, real);
    if (k && kind == 0) {
        const char *t = terminated(text, text_len, text_buf, sizeof text_buf, &text_heap);
        st = t ? sp_set_metadata_string(k, t) : SP_ERR_OUT_OF_MEMORY;
    }
    free(key_heap);
    free(text_heap);
    return st;
}

sp_status sp_f_region_add_tag(sp_region_t region, const char *tag, long len) {
    char buf[256], *heap;
    const char *t = terminated(tag, len, buf, sizeof buf, &heap);
    sp_status st = t ? sp_region_add_tag(region, t) : SP_ERR_OUT_OF_MEMORY;
    free(heap);
    return st;
}
