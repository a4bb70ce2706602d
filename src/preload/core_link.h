/*
 * The core library's internal entry points the preload library needs,
 * through the companion table (common/companion.h): libscope_profiler
 * exports only its public API.
 */
#ifndef SP_PRELOAD_CORE_LINK_H
#define SP_PRELOAD_CORE_LINK_H

#include <stdint.h>

#include "common/companion.h"

/* The table, or NULL (and one line on stderr) when the core is another version. */
const sp_companion *sp_preload_core(void);

/* Renames a region to name, or to "name <0xADDR>" when another region has that name
 * (two static functions, two constructs in one function). */
void sp_preload_rename_region(const sp_companion *core, sp_region_t region, const char *name,
                              uintptr_t addr);

#endif
