/*
 * The index's string columns, shared: a profile with millions of rows holds
 * the same few source files, texts, tags and "[]" over and over, and one
 * allocation per row and column costs more memory than the rest of the row.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"

static uint64_t hash_string(const char *s) {
    uint64_t h = 14695981039346656037ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

/* first[i]: the index of the first value equal to values[i]. */
static int find_firsts(char *const *values, size_t n, uint32_t *first) {
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
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
    char *block = malloc(size ? size : 1);
    if (!block || !add_block(m, block, size ? size : 1)) {
        free(block);
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
