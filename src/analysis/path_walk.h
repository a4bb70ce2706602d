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

/* The same for an aggregate file from its histogram rows with per-path totals
 * (path_hists.c): calls, totals, exclusive times (a path's total less its
 * children's), merged histograms, per-rank and per-thread totals; no first,
 * last or coverage of its own (the total stands in, as for flat rows).
 * SP_ERR_UNAVAILABLE when the file has no such rows: fall back. */
sp_status sp_paths_collect_hists(const sp_results *r, const sp_compiled_filter *f,
                                 const uint32_t *regions, size_t num_regions, const uint32_t *ranks,
                                 size_t num_ranks, sp_path_trie *t, sp_error *err);

/* Shared by both: the nodes with calls on the rank being pooled. */
typedef struct sp_touched {
    uint32_t *ids;
    size_t count, cap;
} sp_touched;

/* Starts node id's figures for the rank of pass `pass` (once per rank). */
sp_status sp_walk_touch(sp_path_trie *t, uint32_t pass, uint32_t id, sp_touched *list);

/* Closes the rank's pooling of the touched nodes: per-rank and per-thread
 * totals, coverage. */
sp_status sp_walk_flush(sp_path_trie *t, uint32_t rank, sp_touched *list);

/* The node of region g under `parent` (SP_NO_NODE: top level): the parent's
 * path plus the region's elements, repeated chains folded (*collapsed: any
 * element folded), elements past the depth cap folded into the fold node
 * (*fold_levels: how many); SP_NO_NODE when out of memory. */
uint32_t sp_trie_walk(sp_path_trie *t, uint32_t parent, uint32_t g, int *collapsed,
                      uint32_t *fold_levels);

#endif
