/*
 * The reader's chunk decoder (src/format/chunk_decode.c) on untrusted
 * stored chunks. Input: byte 0 picks the pipeline, byte 1 the filter mask
 * (bits 0-2) and the element size (the rest: 8, 1, 2, 3, 16 or 88 bytes),
 * bytes 2-3 the chunk length in elements (1-4096), byte 4 how many of them
 * are wanted; the rest is the stored chunk. The output buffer is exactly
 * the wanted values long and the scratch exactly two chunks, so that ASan
 * sees any write past them; a success of an unfiltered chunk must be its
 * bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "format/chunk_decode.h"
#include "fuzz_chunk.h"

static const sp_chunk_pipeline pipelines[] = {
    {0, {SP_STAGE_SHUFFLE}, 0},
    {1, {SP_STAGE_DEFLATE}, 0},
    {2, {SP_STAGE_SHUFFLE, SP_STAGE_DEFLATE}, 0},
    {2, {SP_STAGE_SHUFFLE, SP_STAGE_LZF}, 0},
    {1, {SP_STAGE_SHUFFLE}, 0},
    {3, {SP_STAGE_SHUFFLE, SP_STAGE_DEFLATE, SP_STAGE_DEFLATE}, 0},
};
static const size_t elems[] = {8, 1, 2, 3, 16, 88};

void sp_fuzz_chunk_one(const uint8_t *data, size_t size) {
    if (size < 5) return;
    sp_chunk_pipeline pipe = pipelines[data[0] % (sizeof pipelines / sizeof *pipelines)];
    const sp_chunk_pipeline *p = &pipe;
    size_t elem = pipe.elem = elems[(data[1] >> 3) % (sizeof elems / sizeof *elems)];
    unsigned mask = data[1] & 7u;
    size_t chunk = 1 + ((size_t)data[2] | (size_t)data[3] << 8) % 4096;
    size_t n = chunk - (data[4] % chunk);
    const uint8_t *raw = data + 5;
    size_t raw_size = size - 5;
    unsigned char *out = malloc(n * elem), *scratch = malloc(2 * chunk * elem);
    if (!out || !scratch) abort();
    int ok = sp_chunk_decode(p, mask, raw, raw_size, chunk, n, out, scratch);
    int unfiltered = p->num == 0 || (mask & ((1u << p->num) - 1)) == (1u << p->num) - 1;
    if (ok && unfiltered && (raw_size != chunk * elem || memcmp(out, raw, n * elem) != 0)) abort();
    free(out);
    free(scratch);
}
