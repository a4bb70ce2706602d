/*
 * Writing the extension /scope_profiler_c/histograms (docs/format.md): the
 * model's per (rank, thread, call path) histograms, nonzero buckets only.
 */
#ifndef SP_FORMAT_WRITE_HISTOGRAMS_H
#define SP_FORMAT_WRITE_HISTOGRAMS_H

#include <hdf5.h>

#include "common/visibility.h"
#include "model/model.h"

/* Writes the group into the open file; nothing when the model has no
 * histograms. Returns 0, or -1 when HDF5 fails or memory runs out. */
SP_INTERNAL_API int sp_write_histograms(hid_t file, const sp_model *m);

#endif
