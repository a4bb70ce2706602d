#include "preload/core_link.h"

#include <stdio.h>

const sp_companion *sp_preload_core(void) {
    static const sp_companion *core;
    static int warned;
    if (!core) core = sp_companion_interface(SP_COMPANION_VERSION);
    if (!core && !warned) {
        warned = 1;
        fputs("scope-profiler: run: libscope_profiler_preload and libscope_profiler are from "
              "different versions; install them together (nothing is profiled)\n",
              stderr);
    }
    return core;
}

void sp_preload_rename_region(const sp_companion *core, sp_region_t region, const char *name,
                              uintptr_t addr) {
    if (core->region_rename(region, name) == SP_OK) return;
    char other[1300];
    snprintf(other, sizeof other, "%.1200s <0x%lx>", name, (unsigned long)addr);
    core->region_rename(region, other);
}
