/*
 * Compressing event-column chunks ourselves, exactly as HDF5's shuffle and
 * deflate filters would, so that the columns of one chunk can be compressed
 * on several cores at once and handed to H5Dwrite_chunk (HDF5 itself
 * compresses on one thread). Readers see ordinary filtered chunks.
 */
#ifndef SP_FORMAT_CHUNK_COMPRESS_H
#define SP_FORMAT_CHUNK_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct sp_chunk_job {
    const int64_t *values; /* n values; the chunk is padded with zeros to chunk_elements */
    size_t n;
    size_t chunk_elements;
    int level;               /* zlib level 0-9 */
    unsigned char *shuffled; /* scratch of chunk_elements * 8 bytes */
    unsigned char *out;      /* sp_chunk_bound(chunk_elements) bytes */
    size_t out_size;         /* result: the compressed size, 0 on failure */
} sp_chunk_job;

/* Room the compressed form of a chunk may need. */
size_t sp_chunk_bound(size_t chunk_elements);

/* Runs the jobs, one thread each (the caller's thread takes the first);
 * falls back to running them in turn if a thread cannot start, or when no
 * thread may start (common/worker_threads.h). Returns 1 when every job
 * succeeded. */
int sp_chunk_compress_all(sp_chunk_job *jobs, size_t count);

#endif
