/*
 * The recording clock. The hot path reads raw ticks (TSC or CLOCK_MONOTONIC
 * nanoseconds); sp_clock_to_ns() maps them exactly onto the CLOCK_MONOTONIC
 * timeline with a linear fit between two calibration points taken at setup
 * and at finalize (docs/clock.md).
 */
#ifndef SP_RECORD_CLOCK_H
#define SP_RECORD_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "common/visibility.h"
#include "scope_profiler.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SP_HAVE_TSC 1
#else
#define SP_HAVE_TSC 0
#endif

/* Nonzero when the hot path reads the TSC. Written only by sp_clock_start().
 * Threads read it outside a session too (an sp_end taking its timestamp
 * while another thread runs sp_setup), so every access is atomic; relaxed is
 * enough: a call recorded in a session was begun after the acquire of the
 * session's active flag, which sp_setup publishes after choosing the clock. */
extern int sp_clock_uses_tsc;

static inline int sp_clock_tsc_on(void) {
    return __atomic_load_n(&sp_clock_uses_tsc, __ATOMIC_RELAXED);
}

static inline int64_t sp_clock_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* clock_gettime as ticks, out of line so the TSC path needs no stack frame. */
uint64_t sp_clock_monotonic_ticks(void);

/* Raw ticks for the hot path. */
static inline uint64_t sp_clock_ticks(void) {
#if SP_HAVE_TSC
    if (__builtin_expect(sp_clock_tsc_on(), 1)) return __rdtsc();
#endif
    return sp_clock_monotonic_ticks();
}

/*
 * Chooses the counter (`requested`, overridden by SCOPE_PROFILER_CLOCK) and
 * takes the first calibration point. Prints a warning if a forced TSC is
 * unusable.
 */
void sp_clock_start(sp_clock_source requested);

/* Takes the second calibration point (at least SP_CLOCK_MIN_CALIBRATION_NS after the first). */
void sp_clock_stop(void);

#define SP_CLOCK_MIN_CALIBRATION_NS 10000000

/* ns per tick (32.32 fixed point) from the first calibration point to a
 * point at least min_ns later, waiting for it (aggregate mode needs a rate
 * during the run; exactly 1 << 32 for CLOCK_MONOTONIC). */
uint64_t sp_clock_early_rate_q32(int64_t min_ns);

/* Tests: CLOCK_MONOTONIC mode reads ticks (= ns) from `source` instead of
 * clock_gettime (NULL restores it), so that a workload has exact durations. */
SP_INTERNAL_API void sp_internal_clock_test_source(uint64_t (*source)(void));

/* Maps raw ticks onto CLOCK_MONOTONIC nanoseconds (valid after sp_clock_stop()). */
int64_t sp_clock_to_ns(uint64_t ticks);

/* CLOCK_MONOTONIC now, on the same timeline as converted timestamps (the
 * test shift included): for the MPI clock alignment. */
SP_INTERNAL_API int64_t sp_internal_clock_now_ns(void);

/* "tsc" or "monotonic". */
const char *sp_clock_name(void);

/* Nanoseconds per tick as measured (1.0 for monotonic). */
double sp_clock_ns_per_tick(void);

/* CLOCK_MONOTONIC's resolution from clock_getres(), ns. */
int64_t sp_clock_resolution_ns(void);

/* Nonzero if the TSC is usable (invariant, and `strict`: also the kernel's clocksource).
 * On zero, *why names the reason. */
int sp_clock_tsc_usable(int strict, const char **why);

#endif
