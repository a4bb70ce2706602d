/*
 * Two-parameter performance models in Extra-P's multi-parameter normal form
 * (Calotoiu et al., CLUSTER'16): t(p, n) = c0 + c1 f(p) g(n), c0 + c1 f(p) +
 * c2 g(n), c0 + c1 f(p) g(n) + c2 f(p) (or + c2 g(n)), one parameter's term
 * alone, or the constant, f and g from the single-parameter exponent set of
 * pmnf.h. With two parameters every hypothesis is tried (Extra-P's heuristic
 * of taking each parameter's best single-parameter term first is not needed):
 * the smallest leave-one-out cross-validated SMAPE over the grid's cells
 * wins, a simpler hypothesis on a tie (docs/scaling.md, "Two parameters").
 */
#ifndef SP_MODELS_PMNF2_H
#define SP_MODELS_PMNF2_H

#include <stddef.h>

#include "common/text_buffer.h"
#include "models/pmnf.h"

/* A two-term hypothesis is only taken when each term changes the time by at least this share
 * of the largest cell's time somewhere (a smaller term fits the noise). */
#define SP_PMNF2_MIN_SHARE 0.01

/* How f(p) and g(n) are combined; c[1], c[2] are the coefficients in this order. */
typedef enum sp_pmnf2_form {
    SP_PMNF2_CONSTANT = 0, /* c0 */
    SP_PMNF2_P,            /* c0 + c1 f */
    SP_PMNF2_N,            /* c0 + c1 g */
    SP_PMNF2_PRODUCT,      /* c0 + c1 f g */
    SP_PMNF2_SUM,          /* c0 + c1 f + c2 g */
    SP_PMNF2_PRODUCT_P,    /* c0 + c1 f g + c2 f */
    SP_PMNF2_PRODUCT_N,    /* c0 + c1 f g + c2 g */
    SP_PMNF2_FORMS
} sp_pmnf2_form;

/* The grid's shape: the longest line along each parameter and the cells off both. */
typedef struct sp_pmnf2_grid {
    size_t p_values; /* distinct p on the p line (n fixed at n_line) */
    double n_line;
    size_t n_values; /* distinct n on the n line (p fixed at p_line) */
    double p_line;
    size_t off_lines; /* cells with p != p_line and n != n_line */
    size_t cells;     /* distinct (p, n) */
    size_t points;    /* measurements (repetitions included) */
} sp_pmnf2_grid;

typedef struct sp_pmnf2_model {
    sp_pmnf2_form form;
    sp_pmnf_term f, g; /* meaningful where the form uses them */
    double c[3];
    double cv_smape; /* percent, over the cells (the selection) */
    double smape;    /* percent: the full fit against every cell's mean */
    sp_pmnf2_grid grid;
} sp_pmnf2_model;

/* Whether the grid can be modelled: SP_PMNF_MIN_SIZES values on each line and a cell off both. */
int sp_pmnf2_grid_enough(const sp_pmnf2_grid *g);

/*
 * Fits the n measurements (p[k], q[k], t[k]) (a NaN t is skipped;
 * repetitions of a cell are averaged). SP_ERR_INVALID_ARGUMENT when a p or
 * q is not positive or the grid is too small (out->grid says why);
 * SP_ERR_OUT_OF_MEMORY.
 */
sp_status sp_pmnf2_fit(const double *p, const double *q, const double *t, size_t n,
                       sp_pmnf2_model *out);

double sp_pmnf2_eval(const sp_pmnf2_model *m, double p, double q);

/* "0.001 + 2e-05 * p^(1/2) * n" with `pvar` and `nvar` for the parameters. */
void sp_pmnf2_text(const sp_pmnf2_model *m, const char *pvar, const char *nvar, sp_textbuf *out);

#endif
