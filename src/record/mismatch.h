/*
 * Reports of sp_end() calls that do not match the innermost open call:
 * one stderr line per call site, counted for the finalize report.
 */
#ifndef SP_RECORD_MISMATCH_H
#define SP_RECORD_MISMATCH_H

#include <stdint.h>

#include "scope_profiler.h"

/* sp_end(region) found no open call of region on the thread; it was ignored. */
void sp_mismatch_unmatched(sp_region_t region, sp_region_t innermost, const char *file, int line);

/* sp_end(region) ended an outer call of region, dropping `dropped` calls opened inside it. */
void sp_mismatch_out_of_order(sp_region_t region, sp_region_t innermost, uint32_t dropped,
                              const char *file, int line);

/* Mismatched sp_end() calls so far (all sites, all reports), and a reset for a new session. */
uint64_t sp_mismatch_count(void);
void sp_mismatch_reset(void);

#endif
