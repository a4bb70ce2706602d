#include "record/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if SP_HAVE_TSC
#include <cpuid.h>
#endif

int sp_clock_uses_tsc;

static uint64_t (*test_source)(void);

__attribute__((noinline)) uint64_t sp_clock_monotonic_ticks(void) {
    uint64_t (*source)(void) = __atomic_load_n(&test_source, __ATOMIC_RELAXED);
    if (__builtin_expect(source != NULL, 0)) return source();
    return (uint64_t)sp_clock_monotonic_ns();
}

void sp_internal_clock_test_source(uint64_t (*source)(void)) {
    __atomic_store_n(&test_source, source, __ATOMIC_RELAXED);
}

/* One (ticks, ns) pair of the linear map. */
typedef struct calibration_point {
    uint64_t ticks;
    int64_t ns;
} calibration_point;

static calibration_point first_point, second_point;
/* SCOPE_PROFILER_TEST_CLOCK_SHIFT_NS: moves this process's timeline, to test
 * the MPI clock alignment on one node. */
static int64_t test_shift_ns;
/* ns per tick as a 32.32 fixed-point number (exact to 2^-32 ns per tick). */
static uint64_t ns_per_tick_q32 = (uint64_t)1 << 32;

int sp_clock_tsc_usable(int strict, const char **why) {
#if SP_HAVE_TSC
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) {
        *why = "the CPU does not report whether its TSC is invariant";
        return 0;
    }
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    if (!(edx & (1u << 8))) {
        *why = "the CPU's TSC is not invariant";
        return 0;
    }
    if (strict) {
        FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
        char source[64] = "";
        if (f) {
            if (!fgets(source, sizeof source, f)) source[0] = '\0';
            fclose(f);
        }
        if (strncmp(source, "tsc", 3) != 0) {
            *why = "the kernel does not use the TSC as its clocksource";
            return 0;
        }
    }
    return 1;
#else
    (void)strict;
    *why = "this architecture has no TSC";
    return 0;
#endif
}

/* A (ticks, ns) pair read as close together as possible: the tightest of a few brackets. */
static calibration_point read_point(void) {
    calibration_point best = {0, 0};
    uint64_t best_width = UINT64_MAX;
    for (int attempt = 0; attempt < 16; attempt++) {
        uint64_t before = sp_clock_ticks();
        int64_t ns = sp_clock_monotonic_ns();
        uint64_t after = sp_clock_ticks();
        if (after - before < best_width) {
            best_width = after - before;
            best.ticks = before + (after - before) / 2;
            best.ns = ns;
        }
    }
    return best;
}

static sp_clock_source clock_from_environment(sp_clock_source requested) {
    const char *env = getenv("SCOPE_PROFILER_CLOCK");
    if (!env || !*env) return requested;
    if (strcasecmp(env, "auto") == 0) return SP_CLOCK_AUTO;
    if (strcasecmp(env, "tsc") == 0) return SP_CLOCK_TSC;
    if (strcasecmp(env, "monotonic") == 0) return SP_CLOCK_MONOTONIC;
    fprintf(stderr,
            "scope-profiler: ignoring SCOPE_PROFILER_CLOCK=\"%s\": use auto, tsc or monotonic\n",
            env);
    return requested;
}

void sp_clock_start(sp_clock_source requested) {
    const char *why = NULL;
    int tsc;
    switch (clock_from_environment(requested)) {
    case SP_CLOCK_MONOTONIC:
        tsc = 0;
        break;
    case SP_CLOCK_TSC:
        tsc = sp_clock_tsc_usable(0, &why);
        if (!tsc)
            fprintf(stderr, "scope-profiler: cannot use the TSC (%s); using CLOCK_MONOTONIC\n",
                    why);
        break;
    default:
        tsc = sp_clock_tsc_usable(1, &why);
        break;
    }
    __atomic_store_n(&sp_clock_uses_tsc, tsc, __ATOMIC_RELAXED);
    const char *shift = getenv("SCOPE_PROFILER_TEST_CLOCK_SHIFT_NS");
    test_shift_ns = shift ? strtoll(shift, NULL, 10) : 0;
    ns_per_tick_q32 = (uint64_t)1 << 32;
    first_point = read_point();
    second_point = first_point;
}

void sp_clock_stop(void) {
    if (!sp_clock_tsc_on()) return;
    /* A short run would give a poor slope: wait until the interval is long enough. */
    while (sp_clock_monotonic_ns() - first_point.ns < SP_CLOCK_MIN_CALIBRATION_NS) {
    }
    second_point = read_point();
    uint64_t dticks = second_point.ticks - first_point.ticks;
    uint64_t dns = (uint64_t)(second_point.ns - first_point.ns);
    if (dticks == 0) return;
    ns_per_tick_q32 = (uint64_t)(((unsigned __int128)dns << 32) / dticks);
}

uint64_t sp_clock_early_rate_q32(int64_t min_ns) {
    if (!sp_clock_tsc_on()) return (uint64_t)1 << 32;
    while (sp_clock_monotonic_ns() - first_point.ns < min_ns) {
    }
    calibration_point now = read_point();
    uint64_t dticks = now.ticks - first_point.ticks;
    uint64_t dns = (uint64_t)(now.ns - first_point.ns);
    return dticks ? (uint64_t)(((unsigned __int128)dns << 32) / dticks) : (uint64_t)1 << 32;
}

int64_t sp_clock_to_ns(uint64_t ticks) {
    if (!sp_clock_tsc_on()) return (int64_t)ticks + test_shift_ns;
    /* Ticks before the first point give a negative offset; keep the arithmetic signed. */
    __int128 delta = (__int128)(int64_t)(ticks - first_point.ticks);
    __int128 scaled = delta * (__int128)ns_per_tick_q32;
    /* Round to nearest: add half before the arithmetic shift. */
    return first_point.ns + test_shift_ns + (int64_t)((scaled + ((__int128)1 << 31)) >> 32);
}

int64_t sp_internal_clock_now_ns(void) {
    return sp_clock_monotonic_ns() + test_shift_ns;
}

const char *sp_clock_name(void) {
    return sp_clock_tsc_on() ? "tsc" : "monotonic";
}

double sp_clock_ns_per_tick(void) {
    return (double)ns_per_tick_q32 / 4294967296.0;
}

int64_t sp_clock_resolution_ns(void) {
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0) return 1;
    return (int64_t)res.tv_sec * 1000000000 + res.tv_nsec;
}
