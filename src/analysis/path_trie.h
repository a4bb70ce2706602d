/*
 * Call paths of the summary table (§5.1): a trie whose edges are path
 * elements. A region name is split on " > " into elements (Python splits
 * the joined call path), and adjacent repeats collapse into one node.
 */
#ifndef SP_ANALYSIS_PATH_TRIE_H
#define SP_ANALYSIS_PATH_TRIE_H

#include "analysis/balance_calc.h"
#include "analysis/internal.h"
#include "analysis/node_calls.h"
#include "model/histogram.h"

#define SP_NO_NODE UINT32_MAX

/* Exclusive values that arrived before their turn (leave order is not pooling order). */
typedef struct sp_pending {
    uint64_t *pos;
    int64_t *value;
    size_t len, cap; /* a min-heap on pos */
} sp_pending;

typedef struct sp_path_node {
    uint32_t parent; /* SP_NO_NODE for a first element */
    uint32_t piece;  /* interned element */
    uint32_t depth;  /* number of elements - 1 */
    uint32_t seq;    /* first-call order (path dict insertion order); SP_NO_NODE before */
    int recursive;
    uint32_t fold_levels; /* a depth-cap fold node (path_depth.h): the deepest level folded */
    int has_child_rows;   /* a descendant path has calls: an "(own)" row follows */
    uint64_t calls;
    sp_node_calls durations; /* ns, in pooling order */
    int64_t min_ns, max_ns;
    double exclusive;   /* left-to-right sum in pooling order of the values added so far */
    uint64_t excl_next; /* pooling position of the next exclusive value to add */
    sp_pending pending;
    /* The rank being pooled: */
    uint32_t rank_pass;
    double rank_total;
    int cov_open;
    double cov_start, cov_end, cov_done;
    sp_lane_sums rank_threads; /* ns per thread on this rank */
    /* Over all ranks: */
    uint64_t num_ranks;
    double *rank_totals;
    uint32_t *rank_ids; /* parallel to rank_totals */
    size_t rank_totals_cap;
    sp_balance_member *lanes; /* (rank, thread) totals */
    size_t num_lanes, lanes_cap;
    uint64_t max_threads; /* most threads with calls on one rank */
    double coverage;
    double min_start, first, max_end, last;
    /* Aggregate files (path_hists.c): the node's calls as their histogram
     * rows give them, instead of per-call durations. */
    int from_hists, has_spread;
    int64_t total_ns, exclusive_ns;
    double mean_ns, m2; /* pooled over its rows (Chan et al.), when the file has them */
    sp_hist hist;
} sp_path_node;

/* Appends a duration; at, when not NULL, holds the same value for as long as
 * the node keeps its durations (the model's column: borrowed, not copied).
 * SP_ERR_OUT_OF_MEMORY on failure. */
sp_status sp_node_push(sp_path_node *n, int64_t duration, const int64_t *at);

/* Adds the exclusive ns of the call at pooling position pos, in position order. */
sp_status sp_node_exclusive(sp_path_node *n, uint64_t pos, int64_t value);

/* Frees a node's per-call storage. */
void sp_node_release(sp_path_node *n);

typedef struct sp_path_trie {
    sp_path_node *nodes;
    size_t num_nodes, nodes_cap;
    uint64_t *child_keys; /* (parent + 1) << 32 | piece; 0 = empty slot */
    uint32_t *child_vals;
    size_t child_cap, child_count;
    const char **piece_text; /* interned elements: pointers into region names */
    size_t *piece_len;
    size_t num_pieces, pieces_cap;
    uint32_t *piece_slots; /* hash of piece ids + 1; 0 = empty */
    size_t piece_slots_cap;
    uint32_t *region_pieces; /* the elements of every region name, back to back */
    size_t *region_first;    /* region g: region_pieces[region_first[g] .. region_first[g+1]) */
    uint32_t max_depth;      /* elements per path, the last one a fold (path_depth.h) */
    uint8_t *piece_folded;   /* per piece: some call of it went into a fold node */
    const sp_excluded_time *excluded; /* the results' (excluded_time.c), or NULL */
    size_t ranks_hint; /* ranks the walk visits: a node's lane and rank arrays grow to
                          that many exactly (path_walk.c), 0 unknown */
} sp_path_trie;

/* Splits every region name of r into interned elements (then
 * sp_trie_depth_init, path_depth.h, sets the depth cap). */
sp_status sp_trie_init(sp_path_trie *t, const sp_results *r);
void sp_trie_free(sp_path_trie *t);

/* The child of parent (SP_NO_NODE: top level) along piece, created when new;
 * SP_NO_NODE when out of memory. */
uint32_t sp_trie_child(sp_path_trie *t, uint32_t parent, uint32_t piece);

/* The id of an element text, or SP_NO_NODE when no region name has it. */
uint32_t sp_trie_find_piece(const sp_path_trie *t, const char *text, size_t len);

#endif
