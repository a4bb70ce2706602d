/*
 * Test support: a small generator with a fixed, portable sequence
 * (splitmix64), uniform (0, 1) and standard normal (Box-Muller) draws, for
 * tests whose figures must be reproduced exactly for a seed.
 */
#ifndef SP_TEST_SEEDED_RANDOM_H
#define SP_TEST_SEEDED_RANDOM_H

#include <math.h>
#include <stdint.h>

static inline uint64_t next_u64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline double uniform(uint64_t *s) {
    return ((double)(next_u64(s) >> 11) + 0.5) * 0x1.0p-53;
}

static inline double normal(uint64_t *s) {
    double u1 = uniform(s); /* two statements: the order of the draws is fixed */
    double u2 = uniform(s);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

#endif
