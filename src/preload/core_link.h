/*
 * The core library's internal entry points the preload library needs,
 * through the companion table (common/companion.h): libscope_profiler
 * exports only its public API.
 */
#ifndef SP_PRELOAD_CORE_LINK_H
#define SP_PRELOAD_CORE_LINK_H

#include "common/companion.h"

/* The table, or NULL (and one line on stderr) when the core is another version. */
const sp_companion *sp_preload_core(void);

#endif
