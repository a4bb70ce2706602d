/*
 * sp_pmnf2_fit(): the cells of the (p, n) grid, then least squares and
 * leave-one-out cross-validation for every hypothesis of the normal form
 * (every form with every term of each parameter: 43 + 43 + 4 x 42 x 42).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/pmnf2.h"
#include "models/pmnf_cells.h"

typedef sp_pmnf_cell cell;

/* The value of the other parameter whose line holds the most cells (the smallest on a tie). */
static void longest_line(const cell *c, size_t n, int along_p, double *at, size_t *count) {
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        double v = along_p ? c[i].q : c[i].p;
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            k += (along_p ? c[j].q : c[j].p) == v;
        if (k > *count || (k == *count && v < *at)) {
            *count = k;
            *at = v;
        }
    }
}

static void grid_shape(const cell *c, size_t n, sp_pmnf2_grid *g) {
    longest_line(c, n, 1, &g->n_line, &g->p_values);
    longest_line(c, n, 0, &g->p_line, &g->n_values);
    g->off_lines = 0;
    for (size_t i = 0; i < n; i++)
        g->off_lines += c[i].p != g->p_line && c[i].q != g->n_line;
    g->cells = n;
}

int sp_pmnf2_grid_enough(const sp_pmnf2_grid *g) {
    return g->p_values >= SP_PMNF_MIN_SIZES && g->n_values >= SP_PMNF_MIN_SIZES && g->off_lines;
}

static size_t num_regressors(sp_pmnf2_form f) {
    return f == SP_PMNF2_CONSTANT ? 0 : f <= SP_PMNF2_PRODUCT ? 1 : 2;
}

/* Regressor j of the form from the terms' values f and g. */
static double regressor(sp_pmnf2_form form, size_t j, double f, double g) {
    switch (form) {
    case SP_PMNF2_P:
        return f;
    case SP_PMNF2_N:
        return g;
    case SP_PMNF2_SUM:
        return j ? g : f;
    case SP_PMNF2_PRODUCT_P:
        return j ? f : f * g;
    case SP_PMNF2_PRODUCT_N:
        return j ? g : f * g;
    default:
        return f * g;
    }
}

/* One hypothesis over the cells: its form and its terms' values at every cell. */
typedef struct hypothesis {
    sp_pmnf2_form form;
    const double *f, *g; /* f(p) and g(n) per cell */
} hypothesis;

/* Least squares over the cells on centred, unit-scaled regressors; with `leverage`, each
 * cell's diagonal of the hat matrix too (for the leave-one-out errors). 0 when a regressor
 * does not vary, the two are collinear, or there are no more cells than coefficients. */
static int fit_form(const hypothesis *h, const cell *c, size_t n, double coef[3],
                    double *leverage) {
    size_t k = num_regressors(h->form);
    double xbar[2] = {0, 0}, tbar = 0;
    if (n <= k + 1) return 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < k; j++)
            xbar[j] += regressor(h->form, j, h->f[i], h->g[i]);
        tbar += c[i].t;
    }
    for (size_t j = 0; j < k; j++)
        xbar[j] /= (double)n;
    tbar /= (double)n;
    double s[2][2] = {{0, 0}, {0, 0}}, b[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        double dx[2];
        for (size_t j = 0; j < k; j++)
            dx[j] = regressor(h->form, j, h->f[i], h->g[i]) - xbar[j];
        for (size_t j = 0; j < k; j++) {
            b[j] += dx[j] * (c[i].t - tbar);
            for (size_t l = 0; l < k; l++)
                s[j][l] += dx[j] * dx[l];
        }
    }
    double a[2] = {0, 0}, d[2] = {1, 1}, r = 0, det = 1;
    if (k >= 1) {
        d[0] = sqrt(s[0][0]);
        if (!(d[0] > 0.0)) return 0;
    }
    if (k == 1) a[0] = b[0] / s[0][0];
    if (k == 2) {
        d[1] = sqrt(s[1][1]);
        if (!(d[1] > 0.0)) return 0;
        r = s[0][1] / (d[0] * d[1]);
        det = 1.0 - r * r;
        if (!(det > 1e-12)) return 0;
        double b0 = b[0] / d[0], b1 = b[1] / d[1];
        a[0] = (b0 - r * b1) / det / d[0];
        a[1] = (b1 - r * b0) / det / d[1];
    }
    coef[1] = a[0];
    coef[2] = a[1];
    coef[0] = tbar - a[0] * xbar[0] - a[1] * xbar[1];
    for (size_t i = 0; leverage && i < n; i++) {
        double u[2] = {0, 0};
        for (size_t j = 0; j < k; j++)
            u[j] = (regressor(h->form, j, h->f[i], h->g[i]) - xbar[j]) / d[j];
        leverage[i] = 1.0 / (double)n + (u[0] * u[0] - 2 * r * u[0] * u[1] + u[1] * u[1]) / det;
    }
    return isfinite(coef[0]) && isfinite(coef[1]) && isfinite(coef[2]);
}

static double eval_form(sp_pmnf2_form form, const double coef[3], double f, double g) {
    double v = coef[0];
    for (size_t j = 0; j < num_regressors(form); j++)
        v += coef[1 + j] * regressor(form, j, f, g);
    return v;
}

static double smape_term(double predicted, double actual) {
    double d = fabs(predicted) + fabs(actual);
    return d > 0.0 ? 2.0 * fabs(predicted - actual) / d : 0.0;
}

/* Percent, from the closed form of least squares: the prediction for cell i without it
 * is t_i - e_i / (1 - h_ii). NAN when the fit or a fold is degenerate. */
static double cv_smape(const hypothesis *h, const cell *c, size_t n, double coef[3],
                       double *leverage) {
    if (!fit_form(h, c, n, coef, leverage)) return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double e = c[i].t - eval_form(h->form, coef, h->f[i], h->g[i]);
        if (!(1.0 - leverage[i] > 1e-9)) return NAN;
        sum += smape_term(c[i].t - e / (1.0 - leverage[i]), c[i].t);
    }
    return 100.0 * sum / (double)n;
}

/* Whether `cv` beats `best` by more than rounding and more than a thousandth of it: a
 * hypothesis tried later (more terms) must really be better to replace a simpler one. */
static int better(double cv, double best) {
    return !isnan(cv) && (isnan(best) || cv < best - 1e-7 - 1e-3 * best);
}

typedef struct search {
    const cell *c;
    size_t n, num_terms;
    const sp_pmnf_term *terms;
    double *fv, *gv; /* num_terms x n: every term's value at every cell's p and n */
    const double *ones;
    double *leverage; /* n */
    double best;
    sp_pmnf2_model *m;
} search;

/* Whether each of a two-term hypothesis's terms changes the time by at least
 * SP_PMNF2_MIN_SHARE of the largest cell's somewhere: a smaller one only fits the noise. */
static int terms_matter(const hypothesis *h, const cell *c, size_t n, const double coef[3]) {
    if (num_regressors(h->form) < 2) return 1;
    double tmax = 0, x[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        tmax = fmax(tmax, fabs(c[i].t));
        for (size_t j = 0; j < 2; j++)
            x[j] = fmax(x[j], fabs(coef[1 + j] * regressor(h->form, j, h->f[i], h->g[i])));
    }
    return x[0] >= SP_PMNF2_MIN_SHARE * tmax && x[1] >= SP_PMNF2_MIN_SHARE * tmax;
}

static void try_hypothesis(search *s, sp_pmnf2_form form, size_t fi, size_t gi) {
    hypothesis h = {form, fi < s->num_terms ? s->fv + fi * s->n : s->ones,
                    gi < s->num_terms ? s->gv + gi * s->n : s->ones};
    double coef[3] = {0, 0, 0}, cv = cv_smape(&h, s->c, s->n, coef, s->leverage);
    if (!better(cv, s->best) || !terms_matter(&h, s->c, s->n, coef)) return;
    s->best = cv;
    s->m->form = form;
    s->m->f = fi < s->num_terms ? s->terms[fi] : (sp_pmnf_term){0, 1, 0};
    s->m->g = gi < s->num_terms ? s->terms[gi] : (sp_pmnf_term){0, 1, 0};
    memcpy(s->m->c, coef, sizeof coef);
}

/* Every hypothesis of the normal form, the simpler forms first (they win ties): the
 * constant, one parameter's term, then every pair of terms multiplied, added, and
 * multiplied plus one of them. Logarithms are left out for values below 1. */
static void search_all(search *s) {
    size_t t = s->num_terms, none = t;
    int p_logs = 1, n_logs = 1;
    for (size_t i = 0; i < s->n; i++) {
        p_logs &= s->c[i].p >= 1.0;
        n_logs &= s->c[i].q >= 1.0;
    }
    try_hypothesis(s, SP_PMNF2_CONSTANT, none, none);
    for (size_t a = 0; a < t; a++)
        if (p_logs || !s->terms[a].log_exp) try_hypothesis(s, SP_PMNF2_P, a, none);
    for (size_t b = 0; b < t; b++)
        if (n_logs || !s->terms[b].log_exp) try_hypothesis(s, SP_PMNF2_N, none, b);
    for (int form = SP_PMNF2_PRODUCT; form < SP_PMNF2_FORMS; form++)
        for (size_t a = 0; a < t; a++)
            for (size_t b = 0; b < t; b++)
                if ((p_logs || !s->terms[a].log_exp) && (n_logs || !s->terms[b].log_exp))
                    try_hypothesis(s, (sp_pmnf2_form)form, a, b);
}

static sp_status select_model(sp_pmnf2_model *m, const cell *c, size_t n) {
    search s = {.c = c, .n = n, .best = NAN, .m = m};
    s.terms = sp_pmnf_terms(&s.num_terms);
    s.fv = malloc(s.num_terms * n * sizeof *s.fv);
    s.gv = malloc(s.num_terms * n * sizeof *s.gv);
    double *ones = malloc(n * sizeof *ones);
    s.leverage = malloc(n * sizeof *s.leverage);
    sp_status st = s.fv && s.gv && ones && s.leverage ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (size_t k = 0; st == SP_OK && k < s.num_terms; k++)
        for (size_t i = 0; i < n; i++) {
            s.fv[k * n + i] = sp_pmnf_term_value(s.terms[k], c[i].p);
            s.gv[k * n + i] = sp_pmnf_term_value(s.terms[k], c[i].q);
        }
    for (size_t i = 0; st == SP_OK && i < n; i++)
        ones[i] = 1.0;
    s.ones = ones;
    if (st == SP_OK) search_all(&s);
    m->cv_smape = s.best;
    double sum = 0;
    for (size_t i = 0; st == SP_OK && i < n; i++)
        sum += smape_term(sp_pmnf2_eval(m, c[i].p, c[i].q), c[i].t);
    m->smape = 100.0 * sum / (double)n;
    free(s.fv);
    free(s.gv);
    free(ones);
    free(s.leverage);
    return st;
}

sp_status sp_pmnf2_fit(const double *p, const double *q, const double *t, size_t n,
                       sp_pmnf2_model *out) {
    memset(out, 0, sizeof *out);
    for (size_t k = 0; k < n; k++)
        if (!(p[k] > 0.0) || !isfinite(p[k]) || !(q[k] > 0.0) || !isfinite(q[k]))
            return SP_ERR_INVALID_ARGUMENT;
    cell *c = malloc((n ? n : 1) * sizeof *c);
    if (!c) return SP_ERR_OUT_OF_MEMORY;
    size_t d = sp_pmnf_cell_means(p, q, t, n, c, &out->grid.points);
    grid_shape(c, d, &out->grid);
    sp_status st = sp_pmnf2_grid_enough(&out->grid) ? SP_OK : SP_ERR_INVALID_ARGUMENT;
    if (st == SP_OK) st = select_model(out, c, d);
    free(c);
    return st;
}

double sp_pmnf2_eval(const sp_pmnf2_model *m, double p, double q) {
    return eval_form(m->form, m->c, sp_pmnf_term_value(m->f, p), sp_pmnf_term_value(m->g, q));
}

/* The regressor j of the model's form as text. */
static void regressor_text(const sp_pmnf2_model *m, size_t j, const char *pvar, const char *nvar,
                           sp_textbuf *out) {
    int f = m->form != SP_PMNF2_N && !(m->form == SP_PMNF2_SUM && j) &&
            !(m->form == SP_PMNF2_PRODUCT_N && j);
    int g = m->form != SP_PMNF2_P && !(m->form == SP_PMNF2_SUM && !j) &&
            !(m->form == SP_PMNF2_PRODUCT_P && j);
    if (f) sp_pmnf_term_text(m->f, pvar, out);
    if (f && g) sp_textbuf_append(out, " * ");
    if (g) sp_pmnf_term_text(m->g, nvar, out);
}

void sp_pmnf2_text(const sp_pmnf2_model *m, const char *pvar, const char *nvar, sp_textbuf *out) {
    sp_textbuf_printf(out, "%.6g", m->c[0]);
    for (size_t j = 0; j < num_regressors(m->form); j++) {
        sp_pmnf_coefficient_text(m->c[1 + j], out);
        regressor_text(m, j, pvar, nvar, out);
    }
}
