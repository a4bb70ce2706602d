/*
 * The process-wide region registry: name <-> handle, and each region's
 * source location. Interning takes a mutex (once per call site); reading a
 * name by handle needs no lock, because entries never move once published.
 */
#ifndef SP_RECORD_REGISTRY_H
#define SP_RECORD_REGISTRY_H

#include <stdint.h>

#include "common/visibility.h"
#include "scope_profiler.h"

/* Returns the handle of name, registering it (with file:line) if new. */
sp_region_t sp_registry_intern(const char *name, const char *file, int line);

/* The session root's handle: the one region named SP_SESSION_ROOT_NAME (the
 * functions above give a user's region of that name SP_SESSION_USER_NAME). */
sp_region_t sp_registry_intern_root(void);

/* The handle of name if registered, else SP_REGION_NONE. */
sp_region_t sp_registry_find(const char *name);

/* Number of handles issued so far; valid handles are 1..count. */
uint32_t sp_registry_count(void);

/* The registry's copy of the name, or NULL for an invalid handle. */
const char *sp_registry_name(sp_region_t region);

/* Source location of the region's first registration (file may be NULL, line 0). */
void sp_registry_location(sp_region_t region, const char **file, int *line);

/* Gives a region a new name (scope-profiler run names functions recorded by
 * address at finalize). SP_ERR_INVALID_ARGUMENT if another region has the name. */
SP_INTERNAL_API sp_status sp_registry_rename(sp_region_t region, const char *name);

/* 64-bit FNV-1a of a string. */
uint64_t sp_hash_string(const char *s);

#endif
