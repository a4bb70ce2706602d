/*
 * A dataset's storage layout checked in its object header's raw bytes
 * before libhdf5 opens the dataset (issue 22 item 8): libhdf5 1.10 divides
 * by every chunk dimension while it opens a chunked dataset (SIGFPE in
 * H5D__chunk_set_info on a dimension of 0:
 * tests/fuzz/regressions_bytes/h5d-chunk-dimensions-zero.bin). Only what is
 * understood for certain is judged; anything else is left to libhdf5.
 */
#ifndef SP_FORMAT_LAYOUT_CHECK_H
#define SP_FORMAT_LAYOUT_CHECK_H

#include <hdf5.h>
#include <stddef.h>

/* -1 when the dataset at path (in a file opened with the guarded driver)
 * has a layout libhdf5 cannot open safely, why set ("chunks of size 0 in
 * dimension 0 of 2"); -2 when out of memory; else 0 (sound, not a dataset,
 * or not checkable). */
int sp_layout_problem(hid_t file, const char *path, char *why, size_t why_size);

#endif
