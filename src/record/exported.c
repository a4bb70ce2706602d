/*
 * The recording calls as real, exported functions for foreign callers
 * (Fortran, FFI, function pointers): the header's inline path (the same fast
 * path as sp_begin/sp_end in C) inside one call.
 */
#include "scope_profiler.h"

void sp_begin_fn(sp_region_t region) {
    sp_begin(region);
}

void sp_end_fn(sp_region_t region, const char *file, int line) {
    sp_end_at(region, file, line);
}

void sp_begin_name_fn(const char *name, const char *file, int line) {
    sp_begin_name_at(name, file, line);
}

void sp_end_name_fn(const char *name, const char *file, int line) {
    sp_end_name_at(name, file, line);
}
