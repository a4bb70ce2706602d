/*
 * The depth cap of call-path rows (docs/robustness.md, "Deep call trees"): a
 * path keeps its first max_depth - 1 elements, and everything below ends in
 * one node "…(K levels)" (K: the deepest nesting folded into it) that pools
 * those calls as a collapsed recursion does. Rows, memory and output then
 * grow with the cap, not with the depth of the run.
 */
#ifndef SP_ANALYSIS_PATH_DEPTH_H
#define SP_ANALYSIS_PATH_DEPTH_H

#include "analysis/path_trie.h"
#include "common/text_buffer.h"

/* The piece of a fold node (no region name has it). */
#define SP_FOLD_PIECE (UINT32_MAX - 1)

/* Sets the cap (0: SP_TABLE_DEFAULT_DEPTH) and the per-piece "folded" marks. */
sp_status sp_trie_depth_init(sp_path_trie *t, unsigned max_depth);

/* Where element `piece` under `node` goes when the cap decides: the fold node
 * (under `node` when the element would reach the cap, or `node` itself when it
 * is one), counting one more folded level in *levels; SP_NO_NODE when the cap
 * does not apply (or out of memory: *oom set). */
uint32_t sp_trie_depth_step(sp_path_trie *t, uint32_t node, uint32_t piece, uint32_t *levels,
                            int *oom);

/* Whether node is a fold node. */
static inline int sp_trie_is_fold(const sp_path_trie *t, uint32_t node) {
    return node != SP_NO_NODE && t->nodes[node].piece == SP_FOLD_PIECE;
}

/* Records that a call nested `levels` deep reached fold node `node`. */
void sp_trie_fold_reached(sp_path_trie *t, uint32_t node, uint32_t levels);

/* " > ".join of the node's elements, a fold node as its label (malloc'ed);
 * *name_at = offset of the last one. */
char *sp_trie_path_text(const sp_path_trie *t, uint32_t node, size_t *name_at);

/* Appends the fold node's element text "…(K levels)". */
void sp_trie_fold_label(sp_textbuf *b, const sp_path_node *n);

#endif
