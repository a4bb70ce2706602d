#include "analysis/node_calls.h"

#include <stdlib.h>
#include <string.h>

/* A borrowed run shorter than this on average costs more (16 bytes per span)
 * than a copy (8 bytes per value): past this many spans per value, copy. */
#define MIN_VALUES_PER_SPAN 4
/* Below this many spans a node borrows whatever it gets (small paths). */
#define FREE_SPANS 16

static sp_status add_span(sp_node_calls *c, const int64_t *x) {
    if (c->num_spans == c->spans_cap) {
        size_t cap = c->spans_cap ? 2 * c->spans_cap : 4;
        sp_span *grown = realloc(c->spans, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        c->spans = grown;
        c->spans_cap = cap;
    }
    c->spans[c->num_spans++] = (sp_span){x, 1};
    c->count++;
    return SP_OK;
}

sp_status sp_node_calls_borrow(sp_node_calls *c, const int64_t *at) {
    if (c->last_borrowed) {
        sp_span *last = &c->spans[c->num_spans - 1];
        if (last->x + last->n == at) {
            last->n++;
            c->count++;
            return SP_OK;
        }
    }
    if (c->num_spans >= FREE_SPANS && c->num_spans * MIN_VALUES_PER_SPAN > c->count)
        return sp_node_calls_copy(c, *at); /* fragmented: spans would cost more */
    sp_status st = add_span(c, at);
    if (st == SP_OK) c->last_borrowed = 1;
    return st;
}

static sp_status new_chunk(sp_node_calls *c) {
    if (c->num_chunks == c->chunks_cap) {
        size_t cap = c->chunks_cap ? 2 * c->chunks_cap : 4;
        int64_t **grown = realloc(c->chunks, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        c->chunks = grown;
        c->chunks_cap = cap;
    }
    int64_t *chunk = malloc(sp_chunk_size(c->num_chunks) * sizeof *chunk);
    if (!chunk) return SP_ERR_OUT_OF_MEMORY;
    c->chunks[c->num_chunks++] = chunk;
    c->last_fill = 0;
    return SP_OK;
}

sp_status sp_node_calls_copy(sp_node_calls *c, int64_t value) {
    if (c->num_chunks == 0 || c->last_fill == sp_chunk_size(c->num_chunks - 1)) {
        if (new_chunk(c) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
    }
    int64_t *slot = &c->chunks[c->num_chunks - 1][c->last_fill];
    *slot = value;
    /* the last span ends at this slot when it is a run of this chunk */
    if (!c->last_borrowed && c->last_fill > 0) {
        c->spans[c->num_spans - 1].n++;
        c->count++;
    } else if (add_span(c, slot) != SP_OK) {
        return SP_ERR_OUT_OF_MEMORY;
    }
    c->last_fill++;
    c->last_borrowed = 0;
    return SP_OK;
}

void sp_node_calls_free(sp_node_calls *c) {
    for (size_t i = 0; i < c->num_chunks; i++)
        free(c->chunks[i]);
    free(c->chunks);
    free(c->spans);
    memset(c, 0, sizeof *c);
}
