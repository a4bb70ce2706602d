/* Percentiles of aggregate files from their stored histograms (docs/format.md
 * extension 4): per index row, the histograms of all its call paths and
 * threads merged; pooled rows merge those of their ranks. */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "analysis/histograms.h"
#include "analysis/region_entry.h"

int sp_has_histograms(const sp_results *r) {
    return !sp_columnar(r) && r->m.num_hists > 0;
}

double sp_results_percentile_error(const sp_results *r) {
    if (sp_columnar(r)) return 0.0;
    return sp_has_histograms(r) ? SP_HIST_RELATIVE_ERROR : NAN;
}

/* One merged histogram per model row, built on first use. */
static sp_status row_histograms(const sp_results *cr) {
    sp_results *r = sp_results_mut(cr);
    if (r->row_hists) return SP_OK;
    sp_hist *h = calloc(r->m.num_rows ? r->m.num_rows : 1, sizeof *h);
    if (!h) return SP_ERR_OUT_OF_MEMORY;
    sp_status st = SP_OK;
    for (size_t i = 0; st == SP_OK && i < r->m.num_hists; i++) {
        const sp_model_hist *mh = &r->m.hists[i];
        const sp_model_row *row = sp_region_entry(&r->regions[mh->region], mh->rank);
        if (row) st = sp_hist_merge(&h[row - r->m.rows], &mh->hist); /* the reader checked it */
    }
    if (st != SP_OK) {
        for (size_t i = 0; i < r->m.num_rows; i++)
            sp_hist_free(&h[i]);
        free(h);
        return st;
    }
    r->row_hists = h;
    return SP_OK;
}

void sp_row_histograms_free(sp_results *r) {
    for (size_t i = 0; r->row_hists && i < r->m.num_rows; i++)
        sp_hist_free(&r->row_hists[i]);
    free(r->row_hists);
    r->row_hists = NULL;
}

sp_status sp_rows_hist_percentiles(const sp_results *r, const uint32_t *rows, size_t n,
                                   const double *qs, size_t nq, double divisor, double *out) {
    if (!sp_has_histograms(r)) return SP_ERR_UNAVAILABLE;
    sp_status st = row_histograms(r);
    sp_hist pooled = SP_HIST_INIT;
    for (size_t i = 0; st == SP_OK && i < n; i++)
        st = sp_hist_merge(&pooled, &r->row_hists[rows[i]]);
    for (size_t k = 0; st == SP_OK && k < nq; k++)
        out[k] = pooled.count ? sp_hist_percentile(&pooled, qs[k]) / divisor : 0.0;
    sp_hist_free(&pooled);
    return st;
}
