#include "analysis/call_walk.h"

#include <stdlib.h>

#include "analysis/call_tree.h"
#include "common/error.h"

typedef struct walk_ctx {
    const sp_results *r;
    sp_call_fn fn;
    void *ctx;
} walk_ctx;

static sp_status on_enter(void *ctx, sp_tree_frame *call, sp_tree_frame *parent) {
    walk_ctx *w = ctx;
    const sp_model *m = &w->r->m;
    call->flag = parent ? parent->flag + 1 : 0; /* the depth */
    sp_call_visit v = {m->rows[call->row].region, m->thread_ids ? m->thread_ids[call->event] : -1,
                       call->start, call->end, (uint32_t)call->flag};
    return w->fn(w->ctx, &v);
}

sp_status sp_walk_rank_calls(const sp_results *r, uint32_t rank, sp_call_fn fn, void *ctx,
                             sp_error *err) {
    if (!sp_columnar(r)) return sp_unavailable(r, "a walk over the calls", err);
    size_t nreg = r->m.num_regions;
    uint32_t *regions = malloc((nreg ? nreg : 1) * sizeof *regions);
    uint32_t *rows = malloc((nreg ? nreg : 1) * sizeof *rows);
    sp_status st = SP_OK;
    if (!regions || !rows) {
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    } else {
        for (size_t g = 0; g < nreg; g++)
            regions[g] = (uint32_t)g;
        size_t n = sp_rank_rows(r, rank, regions, nreg, rows);
        walk_ctx w = {r, fn, ctx};
        sp_tree_visitor v = {on_enter, NULL, &w};
        st = sp_tree_walk(r, rows, n, &v, err);
    }
    free(regions);
    free(rows);
    return st;
}
