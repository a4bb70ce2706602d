/*
 * The chunk decoder harness without libFuzzer: chunks shuffled and deflated
 * here decode to their values for every pipeline, element size and wanted
 * count; then
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

/* HDF5's shuffle: byte j of element i goes to plane j. */
static void shuffle(const unsigned char *v, size_t chunk, size_t elem, unsigned char *out) {
    for (size_t i = 0; i < chunk; i++)
        for (size_t j = 0; j < elem; j++)
            out[j * chunk + i] = v[i * elem + j];
}

/* Deflates chunk elements of elem bytes (shuffled first when asked):
 * decoded must equal. */
static int round_trip(size_t chunk, size_t elem, int shuffled, size_t n) {
    size_t bytes = chunk * elem;
    unsigned char *v = malloc(bytes), *out = malloc(bytes);
    unsigned char *plain = malloc(bytes), *scratch = malloc(2 * bytes);
    uLongf packed_n = compressBound((uLong)bytes);
    unsigned char *packed = malloc(packed_n);
    for (size_t i = 0; i < bytes; i++) /* small numbers, now and then a large one */
        v[i] = (unsigned char)(i % elem < 2 || i % (13 * elem) < 8 ? next() : 0);
    if (shuffled)
        shuffle(v, chunk, elem, plain);
    else
        memcpy(plain, v, bytes);
    int failed = compress2(packed, &packed_n, plain, (uLong)bytes, 6) != Z_OK;
    sp_chunk_pipeline p = shuffled
                              ? (sp_chunk_pipeline){2, {SP_STAGE_SHUFFLE, SP_STAGE_DEFLATE}, elem}
                              : (sp_chunk_pipeline){1, {SP_STAGE_DEFLATE}, elem};
    failed = failed || !sp_chunk_decode(&p, 0, packed, packed_n, chunk, n, out, scratch);
    failed = failed || memcmp(out, v, n * elem) != 0;
    /* the shuffle alone (deflate skipped by the mask) */
    if (shuffled && !failed)
        failed = !sp_chunk_decode(&p, 2u, plain, bytes, chunk, n, out, scratch) ||
                 memcmp(out, v, n * elem) != 0;
    if (failed)
        fprintf(stderr, "round trip of %zu elements of %zu bytes (%zu wanted, shuffle %d) failed\n",
                chunk, elem, n, shuffled);
    free(v), free(out), free(plain), free(scratch), free(packed);
    return failed;
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    int failures = 0;
    const size_t chunks[] = {1, 15, 16, 17, 1000, 4096, 65536};
    const size_t elems[] = {8, 1, 2, 3, 16, 88}; /* int64, strings, records */
    for (size_t e = 0; e < sizeof elems / sizeof *elems; e++)
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
            for (int shuffled = 0; shuffled <= 1; shuffled++) {
                failures += round_trip(chunks[c], elems[e], shuffled, chunks[c]);
                failures += round_trip(chunks[c], elems[e], shuffled, 1 + chunks[c] / 3);
            }
    /* mutations of one valid shuffled, deflated chunk of 512 values */
    int64_t v[512];
    unsigned char plain[4096], packed[8192], input[5 + 8192];
    for (size_t i = 0; i < 512; i++)
        v[i] = (int64_t)(i * 7 % 300);
    shuffle((const unsigned char *)v, 512, 8, plain);
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
