/*
 * The clock of the -finstrument-functions hooks' throttling (functions.c):
 * raw ticks, one rdtsc where the CPU's TSC is invariant (x86), else
 * CLOCK_MONOTONIC nanoseconds, so that a sampled or counted call costs two
 * instructions, not two clock_gettime calls. Ticks become nanoseconds
 * through a rate measured from sp_hook_clock_start() to the conversion
 * (the hooks convert only at a throttling check and at finalize).
 */
#ifndef SP_PRELOAD_HOOK_CLOCK_H
#define SP_PRELOAD_HOOK_CLOCK_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SP_HOOK_CLOCK_HAVE_TSC 1
#else
#define SP_HOOK_CLOCK_HAVE_TSC 0
#endif

extern int sp_hook_clock_tsc; /* set once by sp_hook_clock_start() */

uint64_t sp_hook_clock_monotonic(void);

static inline uint64_t sp_hook_ticks(void) {
#if SP_HOOK_CLOCK_HAVE_TSC
    if (__builtin_expect(sp_hook_clock_tsc, 1)) return __rdtsc();
#endif
    return sp_hook_clock_monotonic();
}

/* Chooses the counter and takes the first calibration point. */
void sp_hook_clock_start(void);

/* A span of ticks in nanoseconds, at the rate since sp_hook_clock_start(). */
double sp_hook_clock_ns(uint64_t ticks);

#endif
