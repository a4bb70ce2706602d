/*
 * Small helpers to write FORMAT.md's datasets and attributes: fixed
 * little-endian file types, variable-length UTF-8 strings, and the
 * contiguous-or-chunked storage policy.
 */
#ifndef SP_FORMAT_H5_WRITE_H
#define SP_FORMAT_H5_WRITE_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* Datasets up to this many bytes are contiguous; larger ones chunked. */
#define SP_CONTIGUOUS_MAX_BYTES 65536

/* A variable-length UTF-8 string type (close with H5Tclose). */
hid_t sp_h5_string_type(void);

/* Dataset creation properties for n elements of elem_size bytes:
 * contiguous up to SP_CONTIGUOUS_MAX_BYTES, else chunked (chunk_elements),
 * with shuffle + gzip when gzip_level >= 0 and chunked. */
hid_t sp_h5_dcpl(uint64_t n, size_t elem_size, uint64_t chunk_elements, int gzip_level);

/* Writes a 1-D dataset `name` under loc from a memory buffer (n elements).
 * Returns 0 on success, -1 on failure. */
int sp_h5_write_array(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                      const void *data, uint64_t n);

/* The same with shuffle + gzip at gzip_level (-1: none) when the dataset is
 * large enough to be chunked. */
int sp_h5_write_column(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                       const void *data, uint64_t n, int gzip_level);

/* Longest value (bytes) of a string column that sp_h5_write_string_column
 * may store as fixed-length strings. */
#define SP_FIXED_STRING_MAX 64

/* A 1-D string column (docs/format.md, "Index storage"): variable-length
 * UTF-8, except that a chunked column (more than 4096 rows) whose values are
 * all at most SP_FIXED_STRING_MAX bytes is stored as NUL-padded fixed-length
 * UTF-8 strings of its longest value's size; compressed like
 * sp_h5_write_column. */
int sp_h5_write_string_column(hid_t loc, const char *name, const char *const *strings, uint64_t n,
                              int gzip_level);

/* Writes a 1-D variable-length string dataset. */
int sp_h5_write_strings(hid_t loc, const char *name, const char *const *strings, uint64_t n);

/* Scalar attributes and a 1-D string-array attribute. */
int sp_h5_attr_int64(hid_t loc, const char *name, int64_t value);
int sp_h5_attr_double(hid_t loc, const char *name, double value);
int sp_h5_attr_string(hid_t loc, const char *name, const char *value);
int sp_h5_attr_strings(hid_t loc, const char *name, const char *const *values, size_t n);

#endif
