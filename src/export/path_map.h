/*
 * A growing table of (parent, key) pairs, each given a dense index in
 * insertion order: the call-path tree of the hatchet export (parent node,
 * region) and the caller/callee edges of the pstats export (caller, callee).
 * Open addressing; memory: 16 bytes per pair plus the slot array.
 */
#ifndef SP_EXPORT_PATH_MAP_H
#define SP_EXPORT_PATH_MAP_H

#include <stddef.h>
#include <stdint.h>

#define SP_PATH_NONE UINT32_MAX

typedef struct sp_path_pair {
    uint32_t parent;
    uint64_t key;
} sp_path_pair;

typedef struct sp_path_map {
    sp_path_pair *pairs; /* by index */
    size_t count, cap;
    uint32_t *slots; /* index + 1, 0 = empty */
    size_t num_slots;
} sp_path_map;

/* The index of (parent, key), added when new (*added set to 1); SP_PATH_NONE
 * when out of memory. */
uint32_t sp_path_map_get(sp_path_map *m, uint32_t parent, uint64_t key, int *added);
void sp_path_map_free(sp_path_map *m);

#endif
