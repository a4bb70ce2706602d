/*
 * The chunk decoder harness without libFuzzer: chunks shuffled and deflated
 * here decode to their values for every pipeline and wanted count; then
 * every kind of corruption of them (a flipped byte, a cut, random bytes)
 * goes through the fuzz harness and never decodes to a wrong length.
 * Usage: fuzz_chunk_driver SEED COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/chunk_decode.h"
#include "fuzz_chunk.h"

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

static void shuffle(const int64_t *v, size_t chunk, unsigned char *out) {
    for (size_t i = 0; i < chunk; i++)
        for (size_t j = 0; j < 8; j++)
            out[j * chunk + i] = (unsigned char)((uint64_t)v[i] >> (8 * j));
}

/* Deflates chunk values (shuffled first when asked): decoded must equal. */
static int round_trip(size_t chunk, int shuffled, size_t n) {
    int64_t *v = malloc(chunk * 8), *out = malloc(chunk * 8);
    unsigned char *plain = malloc(chunk * 8), *scratch = malloc(chunk * 16);
    uLongf packed_n = compressBound((uLong)chunk * 8);
    unsigned char *packed = malloc(packed_n);
    for (size_t i = 0; i < chunk; i++)
        v[i] = (int64_t)(next() % 5000) - (i % 13 == 0 ? (int64_t)next() << 20 : 0);
    if (shuffled)
        shuffle(v, chunk, plain);
    else
        memcpy(plain, v, chunk * 8);
    int failed = compress2(packed, &packed_n, plain, (uLong)chunk * 8, 6) != Z_OK;
    sp_chunk_pipeline p = shuffled ? (sp_chunk_pipeline){2, {SP_STAGE_SHUFFLE8, SP_STAGE_DEFLATE}}
                                   : (sp_chunk_pipeline){1, {SP_STAGE_DEFLATE}};
    failed = failed ||
             !sp_chunk_decode(&p, 0, packed, packed_n, chunk, n, (unsigned char *)out, scratch);
    failed = failed || memcmp(out, v, n * 8) != 0;
    /* the shuffle alone (deflate skipped by the mask) */
    if (shuffled && !failed)
        failed =
            !sp_chunk_decode(&p, 2u, plain, chunk * 8, chunk, n, (unsigned char *)out, scratch) ||
            memcmp(out, v, n * 8) != 0;
    if (failed)
        fprintf(stderr, "round trip of %zu values (%zu wanted, shuffle %d) failed\n", chunk, n,
                shuffled);
    free(v), free(out), free(plain), free(scratch), free(packed);
    return failed;
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    int failures = 0;
    const size_t chunks[] = {1, 15, 16, 17, 1000, 4096, 65536};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
        for (int shuffled = 0; shuffled <= 1; shuffled++) {
            failures += round_trip(chunks[c], shuffled, chunks[c]);
            failures += round_trip(chunks[c], shuffled, 1 + chunks[c] / 3);
        }
    /* mutations of one valid shuffled, deflated chunk of 512 values */
    int64_t v[512];
    unsigned char plain[4096], packed[8192], input[5 + 8192];
    for (size_t i = 0; i < 512; i++)
        v[i] = (int64_t)(i * 7 % 300);
    shuffle(v, 512, plain);
    uLongf packed_n = sizeof packed;
    if (compress2(packed, &packed_n, plain, sizeof plain, 6) != Z_OK) return 1;
    for (long k = 0; k < count; k++) {
        input[0] = (unsigned char)(k % 6 == 0 ? next() : 2);
        input[1] = (unsigned char)(k % 5 == 0 ? next() : 0);
        input[2] = 0, input[3] = 2; /* 512 values */
        input[4] = (unsigned char)next();
        size_t n = packed_n;
        memcpy(input + 5, packed, packed_n);
        if (k % 3 == 0)
            input[5 + next() % packed_n] ^= (unsigned char)(1 + next() % 255);
        else if (k % 3 == 1)
            n = next() % packed_n;
        else
            for (size_t i = 0; i < n; i++)
                input[5 + i] = (unsigned char)next();
        sp_fuzz_chunk_one(input, 5 + n);
    }
    printf("chunk decode: %d failures, %ld fuzz inputs\n", failures, count);
    return failures != 0;
}
