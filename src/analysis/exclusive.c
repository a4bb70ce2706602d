/* Exclusive time per (region, rank) row: the stored totals when every row has
 * one, else rebuilt from the call trees of all ranks at once (§3.1, §4.3). */
#include <stdlib.h>
#include <string.h>

#include "analysis/call_tree.h"
#include "common/error.h"
#include "analysis/exclusive.h"
#include "analysis/unavailable.h"

enum { EXCL_UNKNOWN = 0, EXCL_COMPUTED, EXCL_FAILED, EXCL_STORED };

/* A call adds its duration to its row and takes it from its parent's row. */
static sp_status exclusive_enter(void *ctx, sp_tree_frame *call, sp_tree_frame *parent) {
    int64_t *excl = ctx;
    int64_t d = call->end - call->start;
    excl[call->row] += d;
    if (sp_tree_same_lane(call, parent)) excl[parent->row] -= d;
    return SP_OK;
}

static int needs_tree(const sp_results *r) {
    for (size_t i = 0; i < r->m.num_rows; i++)
        if (!r->rows[i].shadowed && r->m.rows[i].count && r->m.rows[i].exclusive_total < 0)
            return 1;
    return 0;
}

static sp_status compute_all(sp_results *r, sp_error *err) {
    size_t nreg = r->m.num_regions;
    r->row_exclusive = calloc(r->m.num_rows ? r->m.num_rows : 1, sizeof *r->row_exclusive);
    uint32_t *regions = malloc((nreg ? nreg : 1) * sizeof *regions);
    uint32_t *rows = malloc((nreg ? nreg : 1) * sizeof *rows);
    sp_status st = SP_OK;
    if (!r->row_exclusive || !regions || !rows)
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t g = 0; st == SP_OK && g < nreg; g++)
        regions[g] = (uint32_t)g; /* file order */
    sp_tree_visitor v = {exclusive_enter, NULL, r->row_exclusive};
    for (size_t k = 0; st == SP_OK && k < r->num_data_ranks; k++) {
        size_t n = sp_rank_rows(r, r->data_ranks[k], regions, nreg, rows);
        if (n && r->m.rows[rows[0]].events_skipped) continue; /* a rank not read */
        st = sp_tree_walk(r, rows, n, &v, err);
    }
    free(regions);
    free(rows);
    return st;
}

static sp_status ensure_exclusive(const sp_results *cr, sp_error *err) {
    sp_results *r = sp_results_mut(cr);
    if (r->exclusive_state == EXCL_UNKNOWN) {
        if (!needs_tree(r)) {
            r->exclusive_state = EXCL_STORED;
        } else {
            sp_error local;
            sp_status st = compute_all(r, &local);
            if (st == SP_ERR_OUT_OF_MEMORY) { /* not cached: a later call may succeed */
                free(r->row_exclusive);
                r->row_exclusive = NULL;
                if (err) *err = local;
                return st;
            }
            r->exclusive_state = st == SP_OK ? EXCL_COMPUTED : EXCL_FAILED;
            r->exclusive_error = local;
        }
    }
    if (r->exclusive_state != EXCL_FAILED) return SP_OK;
    if (err) *err = r->exclusive_error;
    return r->exclusive_error.status;
}

sp_status sp_row_exclusive_ns(const sp_results *r, uint32_t row, int64_t *out, sp_error *err) {
    const sp_model_row *mr = &r->m.rows[row];
    *out = 0;
    if (mr->count == 0) return SP_OK;
    if (!sp_columnar(r)) {
        if (mr->exclusive_total >= 0) *out = mr->exclusive_total;
        return mr->exclusive_total >= 0 ? SP_OK : sp_unavailable(r, "exclusive times", err);
    }
    sp_status st = ensure_exclusive(r, err);
    if (st != SP_OK) return st;
    *out = r->exclusive_state == EXCL_STORED ? mr->exclusive_total : r->row_exclusive[row];
    return SP_OK;
}
