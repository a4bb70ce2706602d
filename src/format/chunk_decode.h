/*
 * Undoing HDF5's shuffle, deflate and LZF filters on one stored chunk of
 * fixed-size elements ourselves: the mirror of chunk_compress.h. HDF5 decodes the
 * chunks of a read one after the other on one thread and then copies them
 * out of its chunk cache; decoding them here lets the reader use several
 * cores and write each chunk straight into the column (format/chunk_read.h).
 * Pure functions of bytes: no HDF5 call, safe on any thread.
 */
#ifndef SP_FORMAT_CHUNK_DECODE_H
#define SP_FORMAT_CHUNK_DECODE_H

#include <stddef.h>

typedef enum sp_chunk_stage {
    SP_STAGE_SHUFFLE, /* HDF5's shuffle filter over the pipeline's element size */
    SP_STAGE_DEFLATE, /* HDF5's deflate filter: one zlib stream */
    SP_STAGE_LZF      /* the LZF filter (id 32000); only with liblzf */
} sp_chunk_stage;

#define SP_CHUNK_MAX_STAGES 4

/* A dataset's filter pipeline in the order the writer applied it, over
 * elements of elem bytes (8 for int64 columns, the record size of a
 * compound, the length of a fixed-length string). */
typedef struct sp_chunk_pipeline {
    int num;
    sp_chunk_stage stage[SP_CHUNK_MAX_STAGES];
    size_t elem;
} sp_chunk_pipeline;

/*
 * Decodes the raw_size stored bytes of one chunk of chunk_elements elements
 * of p->elem bytes and writes its first n (n <= chunk_elements) to out
 * (n * elem bytes). Bit i of skip_mask set: stage i was not applied to this
 * chunk (HDF5's filter mask). scratch holds 2 * chunk_elements * elem bytes. Returns 1, or 0
 * when the bytes are not one whole chunk through the pipeline (damage, or a
 * stage this build cannot undo); out may then hold anything.
 */
int sp_chunk_decode(const sp_chunk_pipeline *p, unsigned skip_mask, const unsigned char *raw,
                    size_t raw_size, size_t chunk_elements, size_t n, unsigned char *out,
                    unsigned char *scratch);

#endif
