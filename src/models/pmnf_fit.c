/*
 * sp_pmnf_fit(): least squares for each candidate term on the mean time at
 * each size, leave-one-out cross-validation, and the smallest
 * cross-validated SMAPE wins (the constant model first, so that it is kept
 * on a tie).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/pmnf.h"
#include "models/pmnf_cells.h"

typedef sp_pmnf_cell size_mean; /* one parameter: q is 0 in every cell */

/* Least squares of t = c0 + c1 * g over the sizes except `skip` (SIZE_MAX: none);
 * 0 when g does not vary over them. A NULL term fits the constant. */
static int fit_line(const size_mean *s, size_t n, const sp_pmnf_term *term, size_t skip, double *c0,
                    double *c1) {
    double gs = 0, ts = 0;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == skip) continue;
        gs += term ? sp_pmnf_term_value(*term, s[k].p) : 0.0;
        ts += s[k].t;
        m++;
    }
    double gbar = gs / (double)m, tbar = ts / (double)m, sxx = 0, sxy = 0;
    for (size_t k = 0; term && k < n; k++) {
        if (k == skip) continue;
        double dg = sp_pmnf_term_value(*term, s[k].p) - gbar;
        sxx += dg * dg;
        sxy += dg * (s[k].t - tbar);
    }
    if (term && !(sxx > 0.0)) return 0;
    *c1 = term ? sxy / sxx : 0.0;
    *c0 = tbar - *c1 * gbar;
    return isfinite(*c0) && isfinite(*c1);
}

static double smape_term(double predicted, double actual) {
    double d = fabs(predicted) + fabs(actual);
    return d > 0.0 ? 2.0 * fabs(predicted - actual) / d : 0.0;
}

/* Percent; NAN when some fit of the n - 1 other sizes is degenerate. */
static double cv_smape(const size_mean *s, size_t n, const sp_pmnf_term *term) {
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        double c0, c1;
        if (!fit_line(s, n, term, k, &c0, &c1)) return NAN;
        double g = term ? sp_pmnf_term_value(*term, s[k].p) : 0.0;
        sum += smape_term(c0 + c1 * g, s[k].t);
    }
    return 100.0 * sum / (double)n;
}

/* The full fit's errors against the means. */
static void fit_errors(const size_mean *s, size_t n, sp_pmnf_model *m) {
    double sum = 0, rss = 0, tbar = 0, tss = 0;
    for (size_t k = 0; k < n; k++)
        tbar += s[k].t / (double)n;
    for (size_t k = 0; k < n; k++) {
        double r = sp_pmnf_eval(m, s[k].p) - s[k].t;
        sum += smape_term(sp_pmnf_eval(m, s[k].p), s[k].t);
        rss += r * r;
        tss += (s[k].t - tbar) * (s[k].t - tbar);
    }
    size_t params = m->constant ? 1 : 2;
    m->smape = 100.0 * sum / (double)n;
    m->rss = rss;
    m->adj_r2 = tss > 0.0 ? 1.0 - (rss / (double)(n - params)) / (tss / (double)(n - 1)) : 1.0;
}

/* Whether `cv` beats `best` by more than rounding: equal errors keep the earlier, simpler model. */
static int better(double cv, double best) {
    return !isnan(cv) && (isnan(best) || cv < best - 1e-9 * (1.0 + best));
}

sp_status sp_pmnf_fit(const double *p, const double *t, size_t n, sp_pmnf_model *out) {
    memset(out, 0, sizeof *out);
    for (size_t k = 0; k < n; k++)
        if (!(p[k] > 0.0) || !isfinite(p[k])) return SP_ERR_INVALID_ARGUMENT;
    size_mean *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return SP_ERR_OUT_OF_MEMORY;
    size_t d = sp_pmnf_cell_means(p, NULL, t, n, s, &out->num_points);
    out->num_sizes = d;
    if (d < SP_PMNF_MIN_SIZES) {
        free(s);
        return SP_ERR_INVALID_ARGUMENT;
    }
    out->constant = 1;
    fit_line(s, d, NULL, SIZE_MAX, &out->c0, &out->c1);
    double best = cv_smape(s, d, NULL);
    size_t num_terms;
    const sp_pmnf_term *terms = sp_pmnf_terms(&num_terms);
    /* a size below 1 makes log2 negative: logarithmic terms then describe nothing (as in Extra-P)
     */
    int logs = s[0].p >= 1.0;
    for (size_t k = 0; k < num_terms; k++) {
        if (terms[k].log_exp && !logs) continue;
        double cv = cv_smape(s, d, &terms[k]), c0, c1;
        if (!better(cv, best) || !fit_line(s, d, &terms[k], SIZE_MAX, &c0, &c1)) continue;
        best = cv;
        out->constant = 0;
        out->term = terms[k];
        out->c0 = c0;
        out->c1 = c1;
    }
    out->cv_smape = best;
    fit_errors(s, d, out);
    free(s);
    return SP_OK;
}

double sp_pmnf_eval(const sp_pmnf_model *m, double p) {
    return m->constant ? m->c0 : m->c0 + m->c1 * sp_pmnf_term_value(m->term, p);
}
