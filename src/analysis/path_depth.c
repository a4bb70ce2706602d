#include "analysis/path_depth.h"

#include <stdlib.h>

#include "analysis/analysis.h"

sp_status sp_trie_depth_init(sp_path_trie *t, unsigned max_depth) {
    t->max_depth = max_depth >= 2 ? max_depth : SP_TABLE_DEFAULT_DEPTH;
    t->piece_folded = calloc(t->num_pieces + 1, 1);
    return t->piece_folded ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

uint32_t sp_trie_depth_step(sp_path_trie *t, uint32_t node, uint32_t piece, uint32_t *levels,
                            int *oom) {
    uint32_t fold = SP_NO_NODE;
    if (sp_trie_is_fold(t, node))
        fold = node;
    else if (node != SP_NO_NODE && t->nodes[node].depth + 2 >= t->max_depth)
        fold = sp_trie_child(t, node, SP_FOLD_PIECE);
    else
        return SP_NO_NODE;
    if (fold == SP_NO_NODE) {
        *oom = 1;
        return SP_NO_NODE;
    }
    t->piece_folded[piece] = 1; /* its calls have a row: no flat fallback row */
    ++*levels;
    return fold;
}

void sp_trie_fold_reached(sp_path_trie *t, uint32_t node, uint32_t levels) {
    if (levels > t->nodes[node].fold_levels) t->nodes[node].fold_levels = levels;
}

void sp_trie_fold_label(sp_textbuf *b, const sp_path_node *n) {
    sp_textbuf_printf(b, "\xe2\x80\xa6(%u level%s)", (unsigned)n->fold_levels,
                      n->fold_levels == 1 ? "" : "s");
}
