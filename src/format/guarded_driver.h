/*
 * An HDF5 file driver over plain POSIX I/O that turns write failures into a
 * recorded errno instead of an unclosable file (see guarded_driver.c).
 */
#ifndef SP_FORMAT_GUARDED_DRIVER_H
#define SP_FORMAT_GUARDED_DRIVER_H

#include <hdf5.h>

/* A file access property list using the driver; the first failing errno of
 * a file opened with it is stored in *failure (which must outlive the file).
 * Close the list with H5Pclose. Returns -1 on failure. */
hid_t sp_guarded_fapl(int *failure);

/* A file access property list for reading: every global heap collection
 * libhdf5 reads is checked first; the first damage found is described in
 * heap_damage (size bytes, which must outlive the file; set it to "" first). */
hid_t sp_guarded_read_fapl(char *heap_damage, size_t size);

/* The descriptor of a file opened with this driver, or -1. */
int sp_guarded_fd(hid_t file);

#endif
