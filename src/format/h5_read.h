/*
 * Checked HDF5 reading for the profile reader: every helper verifies class,
 * rank and extent before it allocates, and turns each failure into an
 * sp_status with a one-line message that starts with the file's path.
 *
 * Dataset paths are absolute ("/events/durations"); the same string opens
 * the dataset and names it in messages.
 */
#ifndef SP_FORMAT_H5_READ_H
#define SP_FORMAT_H5_READ_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scope_profiler/results.h"

/* What every reading step needs: the open file, its path and the error. */
typedef struct sp_rd {
    hid_t file;
    const char *path;
    sp_error *err;
} sp_rd;

/* Checks the stored variable-length strings of dataset ds (n of them) and
 * the global heap collections they name before libhdf5 reads them
 * (format/vlen_check.h): damage, or SP_OK (checked, or a layout it cannot
 * read itself). */
sp_status sp_rd_check_vlen_strings(sp_rd *rd, hid_t ds, const char *path, size_t n);

/* What kind of object a path names; only hard and soft links are followed. */
typedef enum sp_rd_kind {
    SP_RD_ABSENT = 0,
    SP_RD_GROUP,
    SP_RD_DATASET,
    SP_RD_OTHER,
    SP_RD_DAMAGED /* its header, or a group's on the way, would crash libhdf5 */
} sp_rd_kind;

sp_rd_kind sp_rd_kind_of(hid_t loc, const char *path);

/* Why the last SP_RD_DAMAGED of this thread was given. */
const char *sp_rd_damage_of_kind(void);

/* A short name for a datatype ("int32", "uint64", "float64", "string", ...). */
void sp_rd_type_name(hid_t type, char *buf, size_t size);

/* Sets rd->err to SP_ERR_DAMAGED with "<path>: damaged profile: <message>". */
sp_status sp_rd_damaged(sp_rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
sp_status sp_rd_no_memory(sp_rd *rd);

/* Damage: "cannot read <path> (a damaged file, or a compression filter this
 * HDF5 library lacks)", for a read HDF5 refused. */
sp_status sp_rd_read_failed(sp_rd *rd, const char *path);

/*
 * Opens the 1-D dataset at path and returns its length. A missing dataset
 * is SP_ERR_DAMAGED, a group or a dataset of another rank SP_ERR_BAD_DATASET.
 * Close *ds with H5Dclose.
 */
sp_status sp_rd_open_column(sp_rd *rd, const char *path, hid_t *ds, size_t *n);

/* SP_ERR_BAD_DATASET ("<path> has type float64, expected <expected>") unless
 * the dataset's type is of class `want`. */
sp_status sp_rd_expect_class(sp_rd *rd, hid_t ds, const char *path, H5T_class_t want,
                             const char *expected);

/*
 * Reads a 1-D integer dataset of any width and byte order as int64 (values
 * outside int64 saturate). Floats, strings and other classes are
 * SP_ERR_BAD_DATASET. *out is malloc'ed (never NULL on success).
 */
sp_status sp_rd_int64_column(sp_rd *rd, const char *path, int64_t **out, size_t *n);

/* The same for a 1-D float dataset of any width, as doubles (integers and
 * other classes are SP_ERR_BAD_DATASET). */
sp_status sp_rd_float64_column(sp_rd *rd, const char *path, double **out, size_t *n);

/* A run of rows [first, first + count) of a column. */
typedef struct sp_rd_range {
    uint64_t first, count;
} sp_rd_range;

/* As sp_rd_int64_column, but only the given ranges are read from the file;
 * the other values of *out (all n of them are allocated) are 0. Ranges past
 * the column's end are SP_ERR_DAMAGED. */
sp_status sp_rd_int64_column_ranges(sp_rd *rd, const char *path, const sp_rd_range *ranges,
                                    size_t num_ranges, int64_t **out, size_t *n);

/* Reads a 1-D string dataset (variable or fixed length, any character set).
 * *out holds n owned strings (NULL in the file reads as ""). */
sp_status sp_rd_string_column(sp_rd *rd, const char *path, char ***out, size_t *n);
void sp_rd_free_strings(char **strings, size_t n);

/* SP_ERR_DAMAGED unless the column at path has `want` rows like ref_path. */
sp_status sp_rd_same_length(sp_rd *rd, const char *path, size_t n, const char *ref_path,
                            size_t want);

/* Checks that a dataset can really hold n elements of elem_size bytes before
 * that much memory is allocated for it (a damaged header can claim any extent). */
sp_status sp_rd_check_storage(sp_rd *rd, hid_t ds, const char *path, size_t n, size_t elem_size);

/* The size of one character of a variable-length string type as the file
 * stores it (1 in every sound file; a damaged base type claims more, and
 * libhdf5 zero-fills that many bytes per character), 0 when unknown. */
size_t sp_rd_vlen_char_size(hid_t type);

/* NULL when `type` is a string type the reader converts safely; else what is
 * wrong with it ("fixed-length strings of 4294967295 bytes, more than ..."),
 * written to buf. Checked before any string is read: class, character set,
 * padding and size (at most SP_MAX_STRING_BYTES, format/vlen_facts.h). */
const char *sp_rd_string_type_problem(hid_t type, char *buf, size_t size);

/* A chunked 1-D dataset of n elements: every chunk on a chunk boundary
 * inside the extent, inside the file, and of the size its chunk holds (exact
 * without filters); not more chunks than the extent fills (chunk_check.c). */
sp_status sp_rd_check_chunks(sp_rd *rd, hid_t ds, const char *path, size_t n);

/* A chunk holding more is damage: libhdf5 allocates a whole chunk to read
 * one (our writer's are 512 KiB at most, h5py's 1 MiB). */
#define SP_RD_MAX_CHUNK_BYTES (256ull << 20)

/* The most a filtered chunk of `want` bytes may store: deflate and LZF
 * never grow data by more than this; more is a damaged chunk index. */
static inline uint64_t sp_rd_max_stored_chunk(uint64_t want) {
    return want + want / 8 + 1024;
}

/* Stored little-endian bytes are this host's values (the reader's own
 * chunk decoding copies them instead of converting). */
static inline int sp_rd_host_little_endian(void) {
    const uint16_t one = 1;
    unsigned char low;
    memcpy(&low, &one, 1);
    return low == 1;
}

/* Reads the n elements of a string attribute of string type `type` into
 * out[0..n) (owned). Returns 0, -1 when HDF5 fails, -2 when out of memory. */
int sp_rd_read_attr_strings(hid_t attr, hid_t type, size_t n, char **out);

/* A transfer property list whose conversion buffer fits n elements (HDF5's
 * default zero-fills 1 MiB per read); H5P_DEFAULT if it cannot be made.
 * Release with sp_rd_close_plist. */
hid_t sp_rd_transfer_plist(hid_t ds, size_t n, size_t mem_elem);
void sp_rd_close_plist(hid_t plist);

/* Reads a scalar string attribute (fixed or variable length) into *out
 * (owned): 1 read, 0 not a readable scalar string, -2 out of memory. */
int sp_rd_attr_string(hid_t attr, char **out);

/* Reads the integer attribute `name` of loc into *value: 1 read, 0 absent,
 * -1 present but not a scalar integer. */
int sp_rd_attr_int64(hid_t loc, const char *name, int64_t *value);

/* Frees variable-length data read with mem_type into buf (n elements). */
void sp_rd_reclaim(hid_t mem_type, size_t n, void *buf);

/* Names collected by an HDF5 iteration callback (attributes or links). */
typedef struct sp_rd_names {
    char **names;
    size_t count, cap;
    int out_of_memory;
} sp_rd_names;

/* Appends a copy of name; returns -1 (and sets out_of_memory) when it cannot,
 * which also stops the HDF5 iteration that called it. */
herr_t sp_rd_names_add(sp_rd_names *l, const char *name);
void sp_rd_names_free(sp_rd_names *l);

#endif
