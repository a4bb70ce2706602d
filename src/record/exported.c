/*
 * The recording calls as real, exported functions for foreign callers
 * (Fortran, FFI, function pointers): the inline test of the header plus one
 * call into the hot path, nothing more.
 */
#include "scope_profiler.h"

#define ACTIVE() __builtin_expect(__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED), 1)

void sp_begin_fn(sp_region_t region) {
    if (ACTIVE()) sp_internal_begin_(region);
}

void sp_end_fn(sp_region_t region, const char *file, int line) {
    if (ACTIVE()) sp_internal_end_(region, file, line);
}

void sp_begin_name_fn(const char *name, const char *file, int line) {
    if (ACTIVE()) sp_internal_begin_name_(name, file, line);
}

void sp_end_name_fn(const char *name, const char *file, int line) {
    if (ACTIVE()) sp_internal_end_name_(name, file, line);
}
