/*
 * Support for the reader tests: building models, writing them with the
 * library's writer, editing the written file with the plain HDF5 API to
 * damage it in one precise way, and checking a read's outcome.
 */
#ifndef SP_TEST_FORMAT_SUPPORT_H
#define SP_TEST_FORMAT_SUPPORT_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* A fresh path in a per-process temporary directory (static buffer per call slot). */
const char *fs_path(const char *name);

/* Model building: regions first, then rows in rank order with their calls. */
void fs_model_init(sp_model *m, const char *const *names, size_t num_names);
void fs_model_add_row(sp_model *m, uint32_t rank, uint32_t region, const int64_t *starts,
                      const int64_t *durations, size_t n);

/* A small valid profile: 2 ranks, regions "setup", "solve", "io"; 9 calls. */
void fs_basic_model(sp_model *m);
/* Writes fs_basic_model() to path with the library's writer. */
void fs_write_basic(const char *path);

/* Edits of an existing file (each opens and closes it). Replacing deletes the
 * link and creates a new 1-D dataset of file type ftype. */
void fs_replace_ints(const char *file, const char *dataset, hid_t ftype, const int64_t *values,
                     size_t n);
void fs_replace_doubles(const char *file, const char *dataset, const double *values, size_t n);
void fs_replace_strings(const char *file, const char *dataset, const char *const *values, size_t n);
void fs_replace_2d(const char *file, const char *dataset, size_t rows, size_t cols);
void fs_replace_scalar(const char *file, const char *dataset);
void fs_delete(const char *file, const char *path);
void fs_make_group(const char *file, const char *path);
void fs_set_attr_int(const char *file, const char *object, const char *name, int64_t value);
void fs_set_attr_string(const char *file, const char *object, const char *name, const char *value);
/* Reads a 1-D integer dataset of the file as int64 (caller frees). */
int64_t *fs_read_ints(const char *file, const char *dataset, size_t *n);

/* An HDF5 file with nothing in it but the root group. */
void fs_write_empty_hdf5(const char *path);

/*
 * Reads path with sp_read() and sp_read_model() and checks both fail with
 * `status`, a one-line message that starts with "<path>: " and contains
 * `needle` (if non-NULL), and that no HDF5 object is left open.
 */
void fs_expect_error(const char *path, sp_status status, const char *needle);

/* Reads path into m (must succeed) and checks that nothing is left open. */
void fs_read_ok(const char *path, sp_model *m);

/* A file of the source tree, relative to tests/format (a static buffer: use
 * it before the next call). */
const char *fs_source(const char *relative);

/* The bytes of a file (caller frees); *n their count. */
unsigned char *fs_load(const char *path, size_t *n);

/* Number of open HDF5 files and file objects (datasets, groups, attributes). */
long fs_open_ids(void);

#endif
