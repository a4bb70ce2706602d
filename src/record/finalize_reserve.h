/*
 * Address space held back for sp_finalize (issue 22 item 1). A run under an
 * address-space cap (`ulimit -v`, which batch systems set) fills the cap with
 * its recorded calls; finalize then needs a few MiB (HDF5, the writer's
 * pieces, the region table) that would no longer be had. sp_setup maps this
 * reserve (no access, no pages: it costs address space only) and finalize
 * unmaps it before it collects, so finalize's own allocations fit.
 */
#ifndef SP_RECORD_FINALIZE_RESERVE_H
#define SP_RECORD_FINALIZE_RESERVE_H

#include <stddef.h>

/* Maps the reserve unless it is held already (silently nothing if it cannot). */
void sp_finalize_reserve_take(void);

/* Unmaps the reserve, making its address space free for finalize. */
void sp_finalize_reserve_release(void);

/* The reserve's size in bytes (SCOPE_PROFILER_FINALIZE_RESERVE_MB overrides the default). */
size_t sp_finalize_reserve_bytes(void);

/* What libhdf5 is given at least to write a profile. */
#define SP_FINALIZE_HEADROOM_MB 8u

/* Nonzero when `extra` bytes plus SP_FINALIZE_HEADROOM_MB of address space
 * are free now (a probe: nothing stays mapped). */
int sp_finalize_headroom(size_t extra);

#endif
