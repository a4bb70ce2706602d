/*
 * The LZF compression filter (HDF5 filter id 32000, registered by h5py and
 * PyTables): profiles the Python package writes with hdf5_compression="lzf"
 * store their chunks with it. We register a decompressor so that the reader
 * opens them; we never write it. Built only with liblzf (SP_LZF); without
 * it sp_lzf_register() does nothing and such files are refused with the
 * reader's "compression filter this HDF5 library lacks" message.
 */
#ifndef SP_FORMAT_LZF_FILTER_H
#define SP_FORMAT_LZF_FILTER_H

#include <stddef.h>

#define SP_LZF_FILTER_ID 32000

/* Registers the decompressor with HDF5 once per process unless HDF5 already
 * has a filter 32000 (a plugin, or h5py in the same process). */
void sp_lzf_register(void);

/* 1 when this build can decompress LZF chunks. */
int sp_lzf_available(void);

/*
 * The H5Z filter function. Decompresses *buf (nbytes) into a new buffer that
 * replaces it (*buf_size its size); returns the decompressed length, or 0
 * on any failure (compression requests, corrupt input, output larger than
 * the chunk size the filter's cd_values[2] announces or than 4 GiB).
 */
size_t sp_lzf_filter(unsigned int flags, size_t cd_nelmts, const unsigned int cd_values[],
                     size_t nbytes, size_t *buf_size, void **buf);

#endif
