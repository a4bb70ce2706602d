/*
 * The LZF decompression path (src/format/lzf_filter.c) on untrusted chunks.
 * Input: byte 0 picks how the chunk size is announced (none, exact, too
 * small), bytes 1-3 the announced size (at most 1 MiB), the rest is the
 * compressed chunk. Checks that a success never claims more bytes than the
 * buffer it returns, and that nothing leaks or overruns (ASan).
 */
#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/lzf_filter.h"
#include "fuzz_lzf.h"

void sp_fuzz_lzf_one(const uint8_t *data, size_t size) {
    if (size < 4) return;
    unsigned int cd[3] = {4, 0x0105,
                          (unsigned int)(data[1] | data[2] << 8 | data[3] << 16) % (1u << 20)};
    size_t cd_nelmts = data[0] % 3 == 0 ? 0 : 3;
    if (data[0] % 3 == 2 && cd[2] > 1) cd[2] /= 2;
    size_t nbytes = size - 4, buf_size = nbytes ? nbytes : 1;
    void *buf = malloc(buf_size);
    if (!buf) return;
    memcpy(buf, data + 4, nbytes);
    size_t got = sp_lzf_filter(H5Z_FLAG_REVERSE, cd_nelmts, cd, nbytes, &buf_size, &buf);
    if (got > buf_size) abort();
    if (got && cd_nelmts && cd[2] && got > cd[2]) abort(); /* 0 announces nothing */
    free(buf);
}
