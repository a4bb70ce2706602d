/* Pooling the calls of every rank into call paths (§5.1 steps 2-4). */
#ifndef SP_ANALYSIS_PATH_WALK_H
#define SP_ANALYSIS_PATH_WALK_H

#include "analysis/filter.h"
#include "analysis/path_trie.h"

/* Walks ranks (in order) over the selected regions (get_regions order) and fills
 * the trie. With patterns in f, exclusive times come from the unfiltered tree.
 * SP_ERR_NESTING (or SP_ERR_UNAVAILABLE) means: no path table, fall back. */
sp_status sp_paths_collect(const sp_results *r, const sp_compiled_filter *f,
                           const uint32_t *regions, size_t num_regions, const uint32_t *ranks,
                           size_t num_ranks, sp_path_trie *t, sp_error *err);

#endif
