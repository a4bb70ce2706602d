/*
 * Empirical scaling models in the performance-model normal form that
 * Extra-P uses (Calotoiu et al., SC'13): t(p) = c0 + c1 * p^i * log2(p)^j,
 * one term chosen from the standard single-parameter exponent set of Extra-P (the
 * pairs i, j with i from 0 to 3 in quarters and thirds, j from 0 to 2), or the
 * constant t(p) = c0 (42 terms in all). The term is the one whose leave-one-out
 * cross-validated SMAPE over the measured sizes is smallest
 * (docs/scaling.md, "Models").
 */
#ifndef SP_MODELS_PMNF_H
#define SP_MODELS_PMNF_H

#include <stddef.h>

#include "common/text_buffer.h"
#include "scope_profiler.h"

/* Extra-P's minimum: fewer distinct sizes cannot tell the terms apart. */
#define SP_PMNF_MIN_SIZES 5

/* One term p^(num/den) * log2(p)^log_exp; num 0 and log_exp 0 is the constant. */
typedef struct sp_pmnf_term {
    int num, den, log_exp;
} sp_pmnf_term;

typedef struct sp_pmnf_model {
    int constant;      /* 1: t = c0 (term unused) */
    sp_pmnf_term term; /* the chosen term */
    double c0, c1;
    double cv_smape;   /* percent: leave-one-out cross-validated SMAPE (the selection) */
    double smape;      /* percent: the fit against the mean at every size */
    double rss;        /* sum of squared residuals against the means, s^2 */
    double adj_r2;     /* adjusted R^2 of the fit (1 for a constant fitting exactly) */
    size_t num_sizes;  /* distinct p */
    size_t num_points; /* measurements (repetitions included) */
} sp_pmnf_model;

/* The standard exponent set, in Extra-P's order; *n receives its length. */
const sp_pmnf_term *sp_pmnf_terms(size_t *n);

/* p^(num/den) * log2(p)^log_exp. */
double sp_pmnf_term_value(sp_pmnf_term t, double p);

/*
 * Fits the model to the n measurements (p[k], t[k]); measurements at one p
 * are repetitions (their mean is fitted, as Extra-P does); a NaN t is
 * skipped. SP_ERR_INVALID_ARGUMENT when fewer than SP_PMNF_MIN_SIZES
 * distinct p remain (out->num_sizes says how many there are) or a p is not
 * positive; SP_ERR_OUT_OF_MEMORY.
 */
sp_status sp_pmnf_fit(const double *p, const double *t, size_t n, sp_pmnf_model *out);

/* The model's value at p. */
double sp_pmnf_eval(const sp_pmnf_model *m, double p);

/* "0.001 + 2.5e-05 * p^(1/2) * log2(p)^2" with `var` for p. */
void sp_pmnf_text(const sp_pmnf_model *m, const char *var, sp_textbuf *out);

/* The term alone: "p^(1/2) * log2(p)^2", "p", "log2(p)". */
void sp_pmnf_term_text(sp_pmnf_term t, const char *var, sp_textbuf *out);

/* " + 2.5e-05 * " (the sign taken out of c). */
void sp_pmnf_coefficient_text(double c, sp_textbuf *out);

/* The polynomial exponent as text: "0", "1", "2", "1/2", "4/3". */
void sp_pmnf_exponent_text(sp_pmnf_term t, char *out, size_t size);

#endif
