/*
 * Test support: reading a profile with the plain HDF5 API, independently
 * of the library's reader, to check what the writer put on disk.
 */
#ifndef SP_TEST_H5_INSPECT_H
#define SP_TEST_H5_INSPECT_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* Reads a 1-D integer dataset as int64 (malloc'ed; *n its length). NULL if absent. */
int64_t *h5i_read_int64(hid_t file, const char *path, size_t *n);

/* Reads a 1-D string dataset (malloc'ed array of malloc'ed strings). NULL if absent. */
char **h5i_read_strings(hid_t file, const char *path, size_t *n);
void h5i_free_strings(char **s, size_t n);

/* 1 if the object exists. */
int h5i_exists(hid_t file, const char *path);

/* Dataset type class, size in bytes, signedness (1 signed), byte order (H5T_ORDER_LE...). */
typedef struct h5i_type {
    H5T_class_t cls;
    size_t size;
    int is_signed;
    H5T_order_t order;
    int is_vlen_string;
    H5T_cset_t cset;
} h5i_type;
int h5i_dataset_type(hid_t file, const char *path, h5i_type *out);

/* Layout (H5D_CONTIGUOUS / H5D_CHUNKED ...) and whether deflate and shuffle filters are set. */
int h5i_dataset_storage(hid_t file, const char *path, H5D_layout_t *layout, int *deflate,
                        int *shuffle);

/* Attribute readers under a group/dataset path; return 0 on success. */
int h5i_attr_int64(hid_t file, const char *obj, const char *name, int64_t *out);
char *h5i_attr_string(hid_t file, const char *obj, const char *name); /* malloc'ed */
int h5i_attr_exists(hid_t file, const char *obj, const char *name);

/* Decodes schema-3 start_deltas of all rows into absolute starts (malloc'ed). */
int64_t *h5i_decode_starts(hid_t file, size_t *n);

#endif
