#include "analysis/path_depth.h"

#include <stdlib.h>

#include "common/text_buffer.h"

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

static const char path_separator[] = " > ";

char *sp_trie_path_text(const sp_path_trie *t, uint32_t node, size_t *name_at) {
    uint32_t depth = t->nodes[node].depth;
    uint32_t *chain = malloc((depth + 1) * sizeof *chain);
    if (!chain) return NULL;
    for (uint32_t k = depth + 1, n = node; k-- > 0; n = t->nodes[n].parent)
        chain[k] = n;
    sp_textbuf b = {0};
    for (uint32_t k = 0; k <= depth; k++) {
        if (k) sp_textbuf_append(&b, path_separator);
        *name_at = b.len;
        uint32_t piece = t->nodes[chain[k]].piece;
        if (piece == SP_FOLD_PIECE)
            sp_trie_fold_label(&b, &t->nodes[chain[k]]);
        else
            sp_textbuf_append_n(&b, t->piece_text[piece], t->piece_len[piece]);
    }
    free(chain);
    return sp_textbuf_take(&b);
}
