/*
 * The LZF harness without libFuzzer: valid chunks (liblzf's own compressor
 * on patterned data) decompress exactly through the filter, with and
 * without the announced size; then every one-byte corruption and truncation
 * of them, and random inputs, go through the fuzz harness.
 * Usage: fuzz_lzf_driver SEED COUNT
 */
#include <hdf5.h>
#include <lzf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/lzf_filter.h"
#include "fuzz_lzf.h"

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

static int check_round_trip(const unsigned char *plain, unsigned int n, int announce) {
    unsigned char *packed = malloc(n + 64);
    unsigned int packed_n = lzf_compress(plain, n, packed, n + 64);
    if (!packed_n) {
        free(packed);
        return 0; /* incompressible: h5py stores such chunks raw */
    }
    unsigned int cd[3] = {4, 0x0105, n};
    size_t size = packed_n;
    void *buf = packed;
    size_t got = sp_lzf_filter(H5Z_FLAG_REVERSE, announce ? 3 : 0, cd, packed_n, &size, &buf);
    int ok = got == n && size >= n && memcmp(buf, plain, n) == 0;
    free(buf);
    if (!ok) fprintf(stderr, "round trip of %u bytes (announced %d) failed\n", n, announce);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    int failures = 0;
    unsigned char plain[70000], input[4 + 70100];
    unsigned int sizes[] = {1, 7, 64, 4096, 65536, 70000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (unsigned int i = 0; i < sizes[s]; i++) /* int64 columns: small, repetitive */
            plain[i] = (unsigned char)(i % 8 == 0 ? (i / 64) & 0xff : 0);
        failures += check_round_trip(plain, sizes[s], 1) + check_round_trip(plain, sizes[s], 0);
    }
    /* An output larger than the announced chunk is refused. */
    memset(plain, 0, 4096);
    unsigned char packed[256];
    unsigned int packed_n = lzf_compress(plain, 4096, packed, sizeof packed);
    unsigned int small[3] = {4, 0x0105, 1000};
    size_t size = packed_n;
    void *buf = malloc(packed_n);
    memcpy(buf, packed, packed_n);
    if (sp_lzf_filter(H5Z_FLAG_REVERSE, 3, small, packed_n, &size, &buf) != 0) {
        fprintf(stderr, "a chunk larger than announced was accepted\n");
        failures++;
    }
    free(buf);
    /* Compression is never offered. */
    if (sp_lzf_filter(0, 0, small, 1, &size, &buf) != 0) failures++;
    for (long k = 0; k < count; k++) {
        size_t n = 4 + next() % (packed_n + 8);
        input[0] = (unsigned char)next();
        input[1] = 0, input[2] = 16, input[3] = 0; /* 4096 */
        memcpy(input + 4, packed, packed_n);
        if (k % 2)
            input[4 + next() % packed_n] = (unsigned char)next();
        else
            for (size_t i = 4; i < n; i++)
                input[i] = (unsigned char)next();
        sp_fuzz_lzf_one(input, n);
    }
    printf("lzf: %d failures, %ld fuzz inputs\n", failures, count);
    return failures != 0;
}
