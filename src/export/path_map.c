/* (parent, key) pairs with dense indices (export/path_map.h). */
#include <stdlib.h>

#include "export/path_map.h"

static size_t slot_of(uint32_t parent, uint64_t key, size_t mask) {
    uint64_t h = ((uint64_t)parent + 1) * 0x9E3779B97F4A7C15u ^ key * 0xD6E8FEB86659FD93u;
    return (size_t)(h ^ (h >> 31)) & mask;
}

static int rehash(sp_path_map *m) {
    size_t n = m->num_slots ? 2 * m->num_slots : 512;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots) return 0;
    for (size_t i = 0; i < m->count; i++) {
        size_t k = slot_of(m->pairs[i].parent, m->pairs[i].key, n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = (uint32_t)i + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->num_slots = n;
    return 1;
}

uint32_t sp_path_map_get(sp_path_map *m, uint32_t parent, uint64_t key, int *added) {
    *added = 0;
    if ((m->count + 1) * 2 > m->num_slots && !rehash(m)) return SP_PATH_NONE;
    size_t mask = m->num_slots - 1, k = slot_of(parent, key, mask);
    for (; m->slots[k]; k = (k + 1) & mask) {
        const sp_path_pair *p = &m->pairs[m->slots[k] - 1];
        if (p->parent == parent && p->key == key) return m->slots[k] - 1;
    }
    if (m->count >= SP_PATH_NONE - 1) return SP_PATH_NONE;
    if (m->count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        sp_path_pair *grown = realloc(m->pairs, cap * sizeof *grown);
        if (!grown) return SP_PATH_NONE;
        m->pairs = grown;
        m->cap = cap;
    }
    uint32_t id = (uint32_t)m->count++;
    m->pairs[id] = (sp_path_pair){parent, key};
    m->slots[k] = id + 1;
    *added = 1;
    return id;
}

void sp_path_map_free(sp_path_map *m) {
    free(m->pairs);
    free(m->slots);
    m->pairs = NULL;
    m->slots = NULL;
    m->count = m->cap = m->num_slots = 0;
}
