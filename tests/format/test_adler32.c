/* The reader's Adler-32 (src/format/adler32.c) gives zlib's adler32() for
 * every length, byte pattern and starting value; the chunk decoder refuses
 * a zlib stream whose checksum, header or end is wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "format/adler32.h"
#include "format/chunk_decode.h"

static uint64_t state = 12345;
static unsigned char next_byte(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned char)(state >> 56);
}

static void assert_as_zlib(const unsigned char *p, size_t n, uint32_t start) {
    uint32_t want = (uint32_t)adler32(start, p, (uInt)n);
    uint32_t got = sp_adler32(start, p, n);
    if (got != want) fail_msg("%zu bytes from %08x: %08x, zlib %08x", n, start, got, want);
}

static void test_lengths_and_patterns(void **state_) {
    (void)state_;
    const size_t lengths[] = {0,    1,    2,    15,    16,    17,    31,     32,     33,
                              5551, 5552, 5553, 11104, 11105, 65536, 100003, 1000000};
    size_t most = 1000000;
    unsigned char *random = malloc(most), *ones = malloc(most), *zeros = calloc(most, 1);
    for (size_t i = 0; i < most; i++)
        random[i] = next_byte();
    memset(ones, 0xff, most); /* the largest sums: any overflow shows here */
    for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++) {
        assert_as_zlib(random, lengths[k], 1);
        assert_as_zlib(ones, lengths[k], 1);
        assert_as_zlib(zeros, lengths[k], 1);
        assert_as_zlib(random + 3, lengths[k] > 3 ? lengths[k] - 3 : 0, 1); /* unaligned */
    }
    /* continuing a checksum: largest starting sums, then a split buffer */
    assert_as_zlib(ones, 77777, 0xfff0fff0u);
    uint32_t split = sp_adler32(sp_adler32(1, random, 4099), random + 4099, 50000);
    assert_int_equal(split, (uint32_t)adler32(1, random, 54099));
    free(random), free(ones), free(zeros);
}

static void test_decoder_checks_the_stream(void **state_) {
    (void)state_;
    enum { N = 512 };
    unsigned char plain[N * 8], packed[N * 8 + 64], out[N * 8], scratch[2 * N * 8];
    for (size_t i = 0; i < sizeof plain; i++)
        plain[i] = (unsigned char)(i % 8 == 0 ? next_byte() : i % 3);
    uLongf packed_n = sizeof packed;
    assert_int_equal(compress2(packed, &packed_n, plain, sizeof plain, 6), Z_OK);
    sp_chunk_pipeline p = {1, {SP_STAGE_DEFLATE}, 8};
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n, N, N, out, scratch), 1);
    assert_memory_equal(out, plain, sizeof plain);
    /* bytes after the stream are ignored, as HDF5 does */
    packed[packed_n] = 0x55;
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n + 1, N, N, out, scratch), 1);
    /* each byte of the checksum matters */
    for (size_t k = 1; k <= 4; k++) {
        packed[packed_n - k] ^= 0x01;
        assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n, N, N, out, scratch), 0);
        packed[packed_n - k] ^= 0x01;
    }
    /* a cut checksum, a wrong header, a preset dictionary flag */
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n - 1, N, N, out, scratch), 0);
    unsigned char first = packed[0], second = packed[1];
    packed[0] = (unsigned char)((first & 0xf0) | 7); /* not deflate */
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n, N, N, out, scratch), 0);
    packed[0] = first;
    packed[1] = (unsigned char)(second ^ 1); /* check bits wrong */
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n, N, N, out, scratch), 0);
    packed[1] = second;
    assert_int_equal(sp_chunk_decode(&p, 0, packed, packed_n, N, N, out, scratch), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths_and_patterns),
        cmocka_unit_test(test_decoder_checks_the_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
