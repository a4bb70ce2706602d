/*
 * An object's header checked in its raw bytes before libhdf5 decodes what
 * it crashes on (issue 22 item 8): a dataset's chunked layout (libhdf5 1.10
 * divides by every chunk dimension while it opens the dataset: SIGFPE in
 * H5D__chunk_set_info, tests/fuzz/regressions_bytes/
 * h5d-chunk-dimensions-zero.bin) and a group's symbol table (a B-tree or
 * local heap address outside the file: SIGSEGV in H5F__accum_read while
 * looking a link up, h5g-symbol-table-address.bin). Only what is understood
 * for certain is judged; anything else is left to libhdf5.
 */
#ifndef SP_FORMAT_HEADER_CHECK_H
#define SP_FORMAT_HEADER_CHECK_H

#include <hdf5.h>
#include <stddef.h>

/* -1 when the object at path (in a file opened with the guarded driver)
 * has a header libhdf5 cannot use safely, why set ("chunks of size 0 in
 * dimension 0 of 2"); -2 when out of memory; else 0 (sound, or not
 * checkable). The path's parent groups must have been checked. */
int sp_header_problem(hid_t file, const char *path, char *why, size_t why_size);

#endif
