/*
 * Where a call site's source file is: __FILE__ is the path given to the
 * compiler, relative to the compile directory when the build used relative
 * paths. At finalize each row's file is looked up (absolute as it is;
 * relative against the working directory at sp_setup, the program's
 * directory and the working directory now), its text captured when asked,
 * and its path stored: absolute when found, and at minimal metadata relative
 * to the working directory at sp_setup, as the Python package stores it.
 */
#ifndef SP_RECORD_SOURCE_PATHS_H
#define SP_RECORD_SOURCE_PATHS_H

#include "model/model.h"
#include "record/config.h"

/* Resolves (and with cfg->capture_region_source captures) the source of
 * every row of m; a text that cannot be captured is reported once on stderr
 * with the places looked in. */
sp_status sp_source_paths_apply(sp_model *m, const sp_config *cfg);

#endif
