#include "record/registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/session_root.h"

/* Entries live in fixed-size blocks that are never moved, so that a handle's
 * name can be read without the lock by any thread that obtained the handle. */
#define BLOCK_BITS 8
#define BLOCK_SIZE (1u << BLOCK_BITS)
#define MAX_BLOCKS (1u << 16) /* 16.7 million regions */

typedef struct entry {
    char *name;
    char *previous; /* the name before sp_registry_rename: a reader may still hold it */
    uint64_t hash;
    char *file;
    int line;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *blocks[MAX_BLOCKS];
static uint32_t count; /* handles 1..count are valid */

/* Open-addressing index name -> handle (0 = empty slot), guarded by lock. */
static uint32_t *index_slots;
static uint32_t index_capacity;

uint64_t sp_hash_string(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return h;
}

static entry *entry_of(sp_region_t region) {
    uint32_t i = region - 1;
    return &blocks[i >> BLOCK_BITS][i & (BLOCK_SIZE - 1)];
}

static int index_grow(void) {
    uint32_t capacity = index_capacity ? index_capacity * 2 : 256;
    uint32_t *slots = calloc(capacity, sizeof *slots);
    if (!slots) return 0;
    for (uint32_t h = 1; h <= count; h++) {
        uint32_t i = (uint32_t)entry_of(h)->hash & (capacity - 1);
        while (slots[i])
            i = (i + 1) & (capacity - 1);
        slots[i] = h;
    }
    free(index_slots);
    index_slots = slots;
    index_capacity = capacity;
    return 1;
}

static sp_region_t index_find(const char *name, uint64_t hash) {
    if (!index_capacity) return SP_REGION_NONE;
    for (uint32_t i = (uint32_t)hash & (index_capacity - 1);; i = (i + 1) & (index_capacity - 1)) {
        uint32_t h = index_slots[i];
        if (!h) return SP_REGION_NONE;
        entry *e = entry_of(h);
        if (e->hash == hash && strcmp(e->name, name) == 0) return h;
    }
}

static sp_region_t add_entry(const char *name, uint64_t hash, const char *file, int line) {
    uint32_t i = count; /* index of the new entry */
    if ((i >> BLOCK_BITS) >= MAX_BLOCKS) return SP_REGION_NONE;
    if ((count + 1) * 2 > index_capacity && !index_grow()) return SP_REGION_NONE;
    entry **block = &blocks[i >> BLOCK_BITS];
    if (!*block && !(*block = calloc(BLOCK_SIZE, sizeof **block))) return SP_REGION_NONE;
    entry *e = &(*block)[i & (BLOCK_SIZE - 1)];
    e->name = strdup(name);
    if (!e->name) return SP_REGION_NONE;
    e->hash = hash;
    e->file = file ? strdup(file) : NULL; /* a lost file name only loses the location */
    e->line = line;
    sp_region_t handle = i + 1;
    uint32_t slot = (uint32_t)hash & (index_capacity - 1);
    while (index_slots[slot])
        slot = (slot + 1) & (index_capacity - 1);
    index_slots[slot] = handle;
    __atomic_store_n(&count, handle, __ATOMIC_RELEASE);
    return handle;
}

/* The session root's name belongs to the library: a user's region of that
 * name is kept apart under another, so that it never merges with the root
 * (whose one call is the session's whole length). */
static const char *user_name(const char *name) {
    if (!name || strcmp(name, SP_SESSION_ROOT_NAME) != 0) return name;
    static int told;
    if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "scope-profiler: the region name \"" SP_SESSION_ROOT_NAME
                        "\" is the session's own: your region is recorded as \""
                        SP_SESSION_USER_NAME "\"\n");
    return SP_SESSION_USER_NAME;
}

static sp_region_t intern(const char *name, const char *file, int line) {
    if (!name) return SP_REGION_NONE;
    uint64_t hash = sp_hash_string(name);
    pthread_mutex_lock(&lock);
    sp_region_t handle = index_find(name, hash);
    if (!handle) handle = add_entry(name, hash, file, line);
    pthread_mutex_unlock(&lock);
    return handle;
}

sp_region_t sp_registry_intern(const char *name, const char *file, int line) {
    return intern(user_name(name), file, line);
}

sp_region_t sp_registry_intern_root(void) {
    return intern(SP_SESSION_ROOT_NAME, NULL, 0);
}

sp_region_t sp_registry_find(const char *name) {
    name = user_name(name);
    if (!name) return SP_REGION_NONE;
    uint64_t hash = sp_hash_string(name);
    pthread_mutex_lock(&lock);
    sp_region_t handle = index_find(name, hash);
    pthread_mutex_unlock(&lock);
    return handle;
}

uint32_t sp_registry_count(void) {
    return __atomic_load_n(&count, __ATOMIC_ACQUIRE);
}

const char *sp_registry_name(sp_region_t region) {
    if (region == SP_REGION_NONE || region > sp_registry_count()) return NULL;
    return entry_of(region)->name;
}

void sp_registry_location(sp_region_t region, const char **file, int *line) {
    *file = NULL;
    *line = 0;
    if (region == SP_REGION_NONE || region > sp_registry_count()) return;
    entry *e = entry_of(region);
    *file = e->file;
    *line = e->line;
}

/* Rebuilds the index at the same capacity (a renamed entry hashes elsewhere). */
static void index_rebuild(void) {
    memset(index_slots, 0, index_capacity * sizeof *index_slots);
    for (uint32_t h = 1; h <= count; h++) {
        uint32_t i = (uint32_t)entry_of(h)->hash & (index_capacity - 1);
        while (index_slots[i])
            i = (i + 1) & (index_capacity - 1);
        index_slots[i] = h;
    }
}

sp_status sp_registry_rename(sp_region_t region, const char *name) {
    if (!name || region == SP_REGION_NONE || region > sp_registry_count()) return SP_ERR_INVALID_ARGUMENT;
    name = user_name(name);
    uint64_t hash = sp_hash_string(name);
    pthread_mutex_lock(&lock);
    sp_status st = SP_OK;
    sp_region_t other = index_find(name, hash);
    entry *e = entry_of(region);
    char *copy = other ? NULL : strdup(name);
    if (other)
        st = other == region ? SP_OK : SP_ERR_INVALID_ARGUMENT;
    else if (!copy)
        st = SP_ERR_OUT_OF_MEMORY;
    else {
        free(e->previous); /* two renames of one region before a reader let go: not done */
        e->previous = e->name;
        __atomic_store_n(&e->name, copy, __ATOMIC_RELEASE);
        e->hash = hash;
        index_rebuild();
    }
    pthread_mutex_unlock(&lock);
    return st;
}
