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
