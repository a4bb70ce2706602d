#include "preload/hook_clock.h"

#include <time.h>

#if SP_HOOK_CLOCK_HAVE_TSC
#include <cpuid.h>
#endif

int sp_hook_clock_tsc;
static uint64_t first_ticks, first_ns;

uint64_t sp_hook_clock_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The invariant-TSC bit (CPUID 0x80000007 EDX 8): the TSC runs at one rate on every core. */
static int tsc_invariant(void) {
#if SP_HOOK_CLOCK_HAVE_TSC
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return 0;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (edx >> 8) & 1;
#else
    return 0;
#endif
}

void sp_hook_clock_start(void) {
    sp_hook_clock_tsc = tsc_invariant();
    first_ticks = sp_hook_ticks();
    first_ns = sp_hook_clock_monotonic();
}

double sp_hook_clock_ns(uint64_t ticks) {
    if (!sp_hook_clock_tsc) return (double)ticks;
    uint64_t span_ticks = sp_hook_ticks() - first_ticks;
    uint64_t span_ns = sp_hook_clock_monotonic() - first_ns;
    if (span_ticks == 0) return (double)ticks;
    return (double)ticks * ((double)span_ns / (double)span_ticks);
}
