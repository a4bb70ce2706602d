/*
 * Whole-column reads of large 1-D columns (8-byte little-endian integers,
 * compound records, fixed-length strings) that decode the stored chunks
 * ourselves (format/chunk_decode.h): HDF5
 * hands over each chunk as stored (H5Dread_chunk, all HDF5 calls on the
 * caller's thread), and the chunks are decoded on several threads straight
 * into the column. Issue 29 item 5: HDF5's own read of the event columns
 * (inflate, then a copy out of its chunk cache, on one thread) was most of
 * `stats`. Anything else HDF5 reads as before.
 *
 * The threads: sp_worker_threads() (SCOPE_PROFILER_THREADS, common/worker_threads.h).
 */
#ifndef SP_FORMAT_CHUNK_READ_H
#define SP_FORMAT_CHUNK_READ_H

#include "format/h5_read.h"

/* Columns shorter than this are read by HDF5: there is nothing to share. */
#define SP_CHUNK_READ_MIN_VALUES ((size_t)1 << 17)

/*
 * Reads the n elements of dataset ds (named path in messages), elem bytes
 * each, into out as stored (the file's byte order and record layout: the
 * caller checks that its type is the memory type) on up to `threads`
 * threads (0 = the default). Handles chunked 1-D datasets whose elements
 * are elem bytes and whose pipeline is made of shuffle (over elem bytes),
 * deflate and LZF, every chunk allocated; else *handled is 0, SP_OK is
 * returned and out may hold anything. A chunk that does not decode is
 * SP_ERR_DAMAGED. The storage checks of sp_rd_check_storage come first.
 */
sp_status sp_rd_chunk_read(sp_rd *rd, hid_t ds, const char *path, size_t n, size_t elem, void *out,
                           int threads, int *handled);

/*
 * Reads the n values of dataset ds (named path in messages) into out as
 * raw 8-byte values (signed or unsigned as stored) on up to `threads`
 * threads (0 = the default above). Handles chunked 1-D datasets of 8-byte
 * little-endian integers whose pipeline is made of shuffle, deflate and
 * LZF, every chunk allocated; for anything else *handled is 0, SP_OK is
 * returned and out may hold anything: the caller reads the column with
 * H5Dread. A chunk that does not decode is SP_ERR_DAMAGED. The storage
 * checks of sp_rd_check_storage come first (the caller's).
 */
sp_status sp_rd_chunk_read_int64(sp_rd *rd, hid_t ds, const char *path, size_t n, int64_t *out,
                                 int threads, int *handled);

#endif
