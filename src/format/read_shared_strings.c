/*
 * The index's string columns, shared: a profile with millions of rows holds
 * the same few source files, texts, tags and "[]" over and over, and one
 * allocation per row and column costs more memory than the rest of the row.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/chunk_read.h"
#include "format/read_internal.h"

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 14695981039346656037ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static uint64_t hash_string(const char *s) {
    return hash_bytes(s, strlen(s));
}

static size_t table_slots(size_t n) {
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    return slots;
}

/* first[i]: the index of the first value equal to values[i]. */
static int find_firsts(char *const *values, size_t n, uint32_t *first) {
    size_t slots = table_slots(n);
    uint32_t *table = malloc(slots * sizeof *table);
    if (!table) return 0;
    memset(table, 0xff, slots * sizeof *table); /* UINT32_MAX: empty */
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)hash_string(values[i]) & (slots - 1);
        while (table[k] != UINT32_MAX && strcmp(values[table[k]], values[i]) != 0)
            k = (k + 1) & (slots - 1);
        if (table[k] == UINT32_MAX) table[k] = (uint32_t)i;
        first[i] = table[k];
    }
    free(table);
    return 1;
}

static int add_block(sp_model *m, char *block, size_t size) {
    size_t n = m->num_shared_strings + 1;
    char **blocks = realloc(m->shared_strings, n * sizeof *blocks);
    if (!blocks) return 0;
    m->shared_strings = blocks;
    size_t *sizes = realloc(m->shared_strings_size, n * sizeof *sizes);
    if (!sizes) return 0;
    m->shared_strings_size = sizes;
    blocks[n - 1] = block;
    sizes[n - 1] = size;
    m->num_shared_strings = n;
    return 1;
}

/* A block of `size` bytes (at least 1) that the model owns from now on; NULL: no memory. */
static char *new_block(sp_model *m, size_t size) {
    if (!size) size = 1;
    char *block = malloc(size);
    if (!block || !add_block(m, block, size)) {
        free(block);
        return NULL;
    }
    return block;
}

sp_status sp_rd_share_strings(sp_rd *rd, sp_model *m, char **values, size_t n) {
    if (n < 2 || n >= UINT32_MAX) return SP_OK;
    uint32_t *first = malloc(n * sizeof *first);
    if (!first || !find_firsts(values, n, first)) {
        free(first);
        return sp_rd_no_memory(rd);
    }
    size_t size = 0;
    for (size_t i = 0; i < n; i++)
        if (first[i] == i) size += strlen(values[i]) + 1;
    char *block = new_block(m, size);
    if (!block) {
        free(first);
        return sp_rd_no_memory(rd);
    }
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        char *shared = values[first[i]]; /* already moved when first[i] < i */
        if (first[i] == i) {
            size_t len = strlen(values[i]) + 1;
            shared = memcpy(block + used, values[i], len);
            used += len;
        }
        free(values[i]);
        values[i] = shared;
    }
    free(first);
    return SP_OK;
}

/* --- fixed-length columns: shared straight from the read buffer ---------- */

/* A fixed-length value's length as the reader takes it: up to the first
 * NUL, trailing spaces dropped for space-padded types (h5_read.c). */
static size_t slot_length(const char *s, size_t size, H5T_str_t pad) {
    size_t n = strnlen(s, size);
    if (pad == H5T_STR_SPACEPAD)
        while (n > 0 && s[n - 1] == ' ')
            n--;
    return n;
}

/* out[i] = the i-th value of buf (n slots of size bytes), each distinct value
 * once in one block the model owns; no allocation per value. */
static sp_status share_slots(sp_rd *rd, sp_model *m, const char *buf, size_t size, H5T_str_t pad,
                             size_t n, char **out) {
    size_t slots = table_slots(n);
    uint32_t *table = malloc(slots * sizeof *table);
    uint32_t *first = malloc(n * sizeof *first);
    if (!table || !first) {
        free(table);
        free(first);
        return sp_rd_no_memory(rd);
    }
    memset(table, 0xff, slots * sizeof *table); /* UINT32_MAX: empty */
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *v = buf + i * size;
        /* neighbouring rows mostly hold the same value: the same slot bytes
         * are the same value, found without hashing */
        if (i > 0 && memcmp(v, v - size, size) == 0) {
            first[i] = first[i - 1];
            continue;
        }
        size_t len = slot_length(v, size, pad);
        size_t k = (size_t)hash_bytes(v, len) & (slots - 1);
        while (table[k] != UINT32_MAX) {
            const char *w = buf + (size_t)table[k] * size;
            if (slot_length(w, size, pad) == len && memcmp(w, v, len) == 0) break;
            k = (k + 1) & (slots - 1);
        }
        if (table[k] == UINT32_MAX) {
            table[k] = (uint32_t)i;
            total += len + 1;
        }
        first[i] = table[k];
    }
    free(table);
    char *block = new_block(m, total);
    if (!block) {
        free(first);
        return sp_rd_no_memory(rd);
    }
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (first[i] != i) {
            out[i] = out[first[i]]; /* first[i] < i: already placed */
            continue;
        }
        const char *v = buf + i * size;
        size_t len = slot_length(v, size, pad);
        out[i] = memcpy(block + used, v, len);
        out[i][len] = '\0';
        used += len + 1;
    }
    free(first);
    return SP_OK;
}

/* Reads the fixed-length string column ds (type `type`, n values, its
 * storage checked) shared. */
static sp_status read_fixed_shared(sp_rd *rd, sp_model *m, hid_t ds, hid_t type, const char *path,
                                   size_t n, char ***out) {
    size_t size = H5Tget_size(type);
    sp_status st = SP_OK;
    char *buf = !size || n > SIZE_MAX / size ? NULL : malloc(n * size);
    char **strings = calloc(n, sizeof *strings);
    if (!buf || !strings) st = sp_rd_no_memory(rd);
    int direct = 0; /* the stored bytes are the values: decode the chunks here */
    if (!st && n >= SP_CHUNK_READ_MIN_VALUES)
        st = sp_rd_chunk_read(rd, ds, path, n, size, buf, 0, &direct);
    if (!st && !direct) {
        hid_t mem = H5Tcopy(type);
        hid_t dxpl = sp_rd_transfer_plist(ds, n, size);
        herr_t rc = mem < 0 ? -1 : H5Dread(ds, mem, H5S_ALL, H5S_ALL, dxpl, buf);
        sp_rd_close_plist(dxpl);
        if (mem >= 0) H5Tclose(mem);
        if (rc < 0) st = sp_rd_read_failed(rd, path);
    }
    if (!st) st = share_slots(rd, m, buf, size, H5Tget_strpad(type), n, strings);
    free(buf);
    if (st) {
        free(strings);
        return st;
    }
    *out = strings;
    return SP_OK;
}

sp_status sp_rd_shared_string_column(sp_rd *rd, sp_model *m, const char *path, char ***out,
                                     size_t *n) {
    hid_t ds;
    *out = NULL;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (st) return st;
    /* the checks in the order sp_rd_string_column makes them, then the length */
    st = sp_rd_expect_class(rd, ds, path, H5T_STRING, "a string dataset");
    hid_t type = st ? -1 : H5Dget_type(ds);
    if (!st && type < 0) st = sp_rd_damaged(rd, "cannot read the type of %s", path);
    int fixed = !st && H5Tis_variable_str(type) == 0 && *n >= 2 && *n < UINT32_MAX;
    int use = 1;
    if (fixed) st = sp_rd_check_storage(rd, ds, path, *n, H5Tget_size(type));
    if (fixed && !st) st = sp_rd_optional_rows(rd, m, path, *n, &use);
    if (fixed && !st && use) st = read_fixed_shared(rd, m, ds, type, path, *n, out);
    if (type >= 0) H5Tclose(type);
    H5Dclose(ds);
    if (st || fixed) {
        if (st || !use) *n = 0;
        return st;
    }
    /* variable-length (or fewer than two rows): read as before, then shared */
    st = sp_rd_string_column(rd, path, out, n);
    if (!st) st = sp_rd_optional_rows(rd, m, path, *n, &use);
    if (!st && use) st = sp_rd_share_strings(rd, m, *out, *n);
    if (st || !use) {
        sp_rd_free_strings(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return st;
}
