#include <stdio.h>
#include <stdlib.h>

#include "fuzz_internal.h"

/* Past the end of the input the bytes come from a generator seeded by what
 * was consumed, so short inputs still describe varied files (zeros would
 * turn every fz_chance() true). */
uint8_t fz_u8(fz *f) {
    if (f->n == 0) {
        f->tail = f->tail * 6364136223846793005ull + 1442695040888963407ull;
        return (uint8_t)(f->tail >> 56);
    }
    f->n--;
    f->tail = f->tail * 31 + *f->p;
    return *f->p++;
}

uint64_t fz_u64(fz *f) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | fz_u8(f);
    return v;
}

size_t fz_below(fz *f, size_t n) {
    if (n <= 1) return 0;
    uint64_t v = n <= 256 ? fz_u8(f) : (uint64_t)fz_u8(f) << 8 | fz_u8(f);
    return (size_t)(v % n);
}

int fz_chance(fz *f, unsigned per256) {
    return fz_u8(f) < per256;
}

int fz_defect(fz *f) {
    return fz_chance(f, f->defect_rate);
}

int64_t fz_value(fz *f) {
    static const int64_t special[] = {0,
                                      1,
                                      -1,
                                      2,
                                      -2,
                                      7,
                                      1000,
                                      65535,
                                      65536,
                                      INT32_MAX,
                                      (int64_t)INT32_MAX + 1,
                                      UINT32_MAX,
                                      (int64_t)UINT32_MAX + 1,
                                      INT64_MAX,
                                      INT64_MAX - 1,
                                      INT64_MIN,
                                      INT64_MIN + 1,
                                      (int64_t)1 << 62,
                                      -((int64_t)1 << 40)};
    uint8_t k = fz_u8(f);
    if (k < 96) return k % 32;
    if (k < 224) return special[k % (sizeof special / sizeof *special)];
    return (int64_t)fz_u64(f);
}

void fz_fail(const char *what, const char *file, int line) {
    fprintf(stderr, "fuzz invariant violated at %s:%d: %s\n", file, line, what);
    abort();
}
