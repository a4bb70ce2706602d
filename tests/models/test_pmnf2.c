/*
 * Two-parameter models (src/models/pmnf2.h) on synthetic grids with known
 * terms: every pair of the standard set recovered exactly from noise-free
 * data, as a product and as a sum; the other forms; recovery rates under
 * seeded ±5 % noise (5 x 5 grid, 5 repetitions; figures in docs/scaling.md);
 * grids too small refused with the shape that says what to add.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "models/pmnf2.h"

static const double ps[5] = {2, 4, 8, 16, 32};
static const double ns[5] = {16, 32, 64, 128, 256};
/* the noisy cases use the wider ranges that Extra-P's guidelines ask for */
static const double wide_ps[5] = {8, 32, 128, 512, 2048};
static const double wide_ns[5] = {10, 40, 160, 640, 2560};

typedef struct truth {
    sp_pmnf2_form form;
    sp_pmnf_term f, g;
    double c[3];
} truth;

static double truth_value(const truth *w, double p, double n) {
    sp_pmnf2_model m = {.form = w->form, .f = w->f, .g = w->g};
    for (int j = 0; j < 3; j++)
        m.c[j] = w->c[j];
    return sp_pmnf2_eval(&m, p, n);
}

/* xorshift64*: u uniform in [-1, 1), the same numbers on every machine */
static double uniform(uint64_t *seed) {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    uint64_t x = *seed * 2685821657736338717ULL;
    return 2.0 * ((double)(x >> 11) / 9007199254740992.0) - 1.0;
}

/* Every cell of the 5 x 5 grid `reps` times, each time * (1 + noise * u). */
static size_t grid(const truth *w, const double *gp, const double *gn, int reps, double noise,
                   uint64_t *seed, double *p, double *n, double *t) {
    size_t k = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (int r = 0; r < reps; r++) {
                p[k] = gp[i];
                n[k] = gn[j];
                t[k++] =
                    truth_value(w, gp[i], gn[j]) * (1.0 + (noise > 0 ? noise * uniform(seed) : 0));
            }
    return k;
}

static int same_term(sp_pmnf_term a, sp_pmnf_term b) {
    return a.num * b.den == b.num * a.den && a.log_exp == b.log_exp;
}

static int uses_f(sp_pmnf2_form f) {
    return f != SP_PMNF2_CONSTANT && f != SP_PMNF2_N;
}

static int uses_g(sp_pmnf2_form f) {
    return f != SP_PMNF2_CONSTANT && f != SP_PMNF2_P;
}

static int recovered(const sp_pmnf2_model *m, const truth *w) {
    return m->form == w->form && (!uses_f(w->form) || same_term(m->f, w->f)) &&
           (!uses_g(w->form) || same_term(m->g, w->g));
}

static void check_exact(const truth *w) {
    double p[25], n[25], t[25];
    size_t k = grid(w, ps, ns, 1, 0, NULL, p, n, t);
    sp_pmnf2_model m;
    assert_int_equal(sp_pmnf2_fit(p, n, t, k, &m), SP_OK);
    if (!recovered(&m, w))
        fail_msg("form %d f %d/%d,%d g %d/%d,%d: chose form %d f %d/%d,%d g %d/%d,%d", w->form,
                 w->f.num, w->f.den, w->f.log_exp, w->g.num, w->g.den, w->g.log_exp, m.form,
                 m.f.num, m.f.den, m.f.log_exp, m.g.num, m.g.den, m.g.log_exp);
    double tmax = 0;
    for (size_t i = 0; i < k; i++)
        tmax = fmax(tmax, fabs(t[i]));
    /* c0 to rounding of the largest time, the coefficients to their own size */
    for (int j = 0; j < 3; j++)
        if (!(fabs(m.c[j] - w->c[j]) <= (j ? 1e-7 * fabs(w->c[j]) : 1e-11 * tmax)))
            fail_msg("form %d: c%d = %.17g, want %.17g", w->form, j, m.c[j], w->c[j]);
    assert_true(m.cv_smape < 1e-6);
    assert_int_equal(m.grid.cells, 25);
    double want = truth_value(w, 1024, 4096);
    assert_true(fabs(sp_pmnf2_eval(&m, 1024, 4096) - want) <= 1e-6 * fabs(want));
}

/* Every third pair of terms (SP_PMNF2_ALL_PAIRS=1 in the environment: all 1,764; about 4 ms
 * a fit, 14 s in all, figures in docs/scaling.md). */
static void exact_pairs(void **state) {
    (void)state;
    size_t num_terms;
    const sp_pmnf_term *terms = sp_pmnf_terms(&num_terms);
    size_t cases = 0, stride = getenv("SP_PMNF2_ALL_PAIRS") ? 1 : 3;
    for (size_t a = 0; a < num_terms; a++)
        for (size_t b = 0; b < num_terms; b++) {
            if ((a * num_terms + b) % stride) continue;
            /* each term 0.3 s (product) or 0.2 and 0.1 s (sum) at the largest cell */
            double fmax = sp_pmnf_term_value(terms[a], ps[4]);
            double gmax = sp_pmnf_term_value(terms[b], ns[4]);
            truth product = {SP_PMNF2_PRODUCT, terms[a], terms[b], {0.002, 0.3 / (fmax * gmax), 0}};
            truth sum = {SP_PMNF2_SUM, terms[a], terms[b], {0.002, 0.2 / fmax, 0.1 / gmax}};
            check_exact(&product);
            check_exact(&sum);
            cases += 2;
        }
    printf("noise-free 5 x 5 grid: %zu of %zu cases recovered exactly (every %zu. of the 42 x 42 "
           "term pairs, as product and as sum)\n",
           cases, cases, stride);
}

static void exact_other_forms(void **state) {
    (void)state;
    const truth cases[] = {
        {SP_PMNF2_CONSTANT, {0, 1, 0}, {0, 1, 0}, {0.25, 0, 0}},
        {SP_PMNF2_P, {1, 1, 1}, {0, 1, 0}, {0.01, 2e-4, 0}},
        {SP_PMNF2_N, {0, 1, 0}, {3, 2, 0}, {0.01, 2e-6, 0}},
        {SP_PMNF2_PRODUCT_P, {1, 1, 0}, {1, 1, 1}, {0.01, 2e-6, 3e-4}},
        {SP_PMNF2_PRODUCT_N, {1, 2, 0}, {2, 1, 0}, {0.01, 1e-7, 2e-6}},
        {SP_PMNF2_PRODUCT_P, {0, 1, 1}, {1, 2, 0}, {0.01, 1e-4, 2e-3}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        check_exact(&cases[k]);
}

/* The form right and each term's exponent within 1/4 with the same log2 exponent (the
 * accuracy bucket of Ritter et al., IPDPS 2020, per parameter). */
static int near(const sp_pmnf2_model *m, const truth *w) {
    double df = (double)m->f.num / m->f.den - (double)w->f.num / w->f.den;
    double dg = (double)m->g.num / m->g.den - (double)w->g.num / w->g.den;
    return m->form == w->form && fabs(df) <= 0.25 + 1e-12 && m->f.log_exp == w->f.log_exp &&
           fabs(dg) <= 0.25 + 1e-12 && m->g.log_exp == w->g.log_exp;
}

/* Of 100 seeds, how many give the generating form and terms exactly (*near: close). */
static int noisy_hits(const truth *w, int *near_hits) {
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int exact = 0;
    *near_hits = 0;
    for (int trial = 0; trial < 100; trial++) {
        double p[125], n[125], t[125];
        size_t k = grid(w, wide_ps, wide_ns, 5, 0.05, &seed, p, n, t);
        sp_pmnf2_model m;
        assert_int_equal(sp_pmnf2_fit(p, n, t, k, &m), SP_OK);
        exact += recovered(&m, w);
        *near_hits += near(&m, w);
    }
    return exact;
}

static void noisy_recovery(void **state) {
    (void)state;
    /* c0 is a tenth of the varying part at the largest cell, as in test_pmnf */
    static const struct {
        sp_pmnf2_form form;
        sp_pmnf_term f, g;
        int min_exact;
    } cases[] = {
        /* measured: 87, 91, 87, 94, 80, 84, 91 of 100 (asserted: 10 less) */
        {SP_PMNF2_PRODUCT, {1, 1, 0}, {1, 1, 0}, 77}, {SP_PMNF2_PRODUCT, {1, 1, 1}, {1, 1, 0}, 81},
        {SP_PMNF2_PRODUCT, {0, 1, 1}, {2, 1, 0}, 77}, {SP_PMNF2_PRODUCT, {1, 2, 0}, {1, 1, 1}, 84},
        {SP_PMNF2_SUM, {1, 1, 0}, {1, 1, 0}, 70},     {SP_PMNF2_SUM, {2, 1, 0}, {0, 1, 1}, 74},
        {SP_PMNF2_SUM, {1, 1, 1}, {1, 2, 0}, 81}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        /* each term 1 s at the largest cell (a sum's two alike), c0 a tenth of the rest */
        double fmax = sp_pmnf_term_value(cases[k].f, wide_ps[4]);
        double gmax = sp_pmnf_term_value(cases[k].g, wide_ns[4]);
        truth w = {cases[k].form, cases[k].f, cases[k].g, {0, 1 / fmax, 1 / gmax}};
        if (w.form == SP_PMNF2_PRODUCT) {
            w.c[1] = 1 / (fmax * gmax);
            w.c[2] = 0;
        }
        w.c[0] = truth_value(&w, wide_ps[4], wide_ns[4]) / 10.0;
        int near_hits, exact = noisy_hits(&w, &near_hits);
        printf("noise 5%%, 5 x 5 grid x 5 reps: %s p^(%d/%d) log2(p)^%d, n^(%d/%d) log2(n)^%d: "
               "exact %d, within 1/4 %d of 100 seeds\n",
               w.form == SP_PMNF2_PRODUCT ? "product" : "sum", w.f.num, w.f.den, w.f.log_exp,
               w.g.num, w.g.den, w.g.log_exp, exact, near_hits);
        if (exact < cases[k].min_exact)
            fail_msg("case %zu: exact %d (want >= %d)", k, exact, cases[k].min_exact);
    }
}

static void too_small(void **state) {
    (void)state;
    truth w = {SP_PMNF2_PRODUCT, {1, 1, 0}, {1, 1, 0}, {1, 1, 0}};
    double p[25], n[25], t[25];
    sp_pmnf2_model m;
    /* 4 x 5: the p line is one value short */
    size_t k = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++, k++) {
            p[k] = ps[i];
            n[k] = ns[j];
            t[k] = truth_value(&w, p[k], n[k]);
        }
    assert_int_equal(sp_pmnf2_fit(p, n, t, k, &m), SP_ERR_INVALID_ARGUMENT);
    assert_int_equal(m.grid.p_values, 4);
    assert_int_equal(m.grid.n_values, 5);
    assert_true(m.grid.n_line == 16 && m.grid.p_line == 2);
    assert_int_equal(m.grid.off_lines, 12);
    /* a cross: both lines full, nothing off them tells a product from a sum */
    k = 0;
    for (int i = 0; i < 5; i++, k++) {
        p[k] = ps[i];
        n[k] = ns[0];
        t[k] = truth_value(&w, p[k], n[k]);
    }
    for (int j = 1; j < 5; j++, k++) {
        p[k] = ps[0];
        n[k] = ns[j];
        t[k] = truth_value(&w, p[k], n[k]);
    }
    assert_int_equal(sp_pmnf2_fit(p, n, t, k, &m), SP_ERR_INVALID_ARGUMENT);
    assert_int_equal(m.grid.p_values, 5);
    assert_int_equal(m.grid.n_values, 5);
    assert_int_equal(m.grid.off_lines, 0);
    assert_int_equal(m.grid.cells, 9);
    /* one more cell off both lines is enough */
    p[k] = ps[4];
    n[k] = ns[4];
    t[k] = truth_value(&w, p[k], n[k]);
    assert_int_equal(sp_pmnf2_fit(p, n, t, k + 1, &m), SP_OK);
    assert_int_equal(m.form, SP_PMNF2_PRODUCT);
    /* a size that is not positive */
    n[0] = 0;
    assert_int_equal(sp_pmnf2_fit(p, n, t, k + 1, &m), SP_ERR_INVALID_ARGUMENT);
}

static void text_forms(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_pmnf2_model m = {
        .form = SP_PMNF2_PRODUCT, .f = {1, 2, 0}, .g = {1, 1, 1}, .c = {0.001, 2e-05, 0}};
    sp_pmnf2_text(&m, "p", "n", &b);
    assert_string_equal(sp_textbuf_str(&b), "0.001 + 2e-05 * p^(1/2) * n * log2(n)");
    sp_textbuf_reset(&b);
    m = (sp_pmnf2_model){.form = SP_PMNF2_SUM, .f = {2, 1, 0}, .g = {0, 1, 1}, .c = {1, 2, -3}};
    sp_pmnf2_text(&m, "p", "n", &b);
    assert_string_equal(sp_textbuf_str(&b), "1 + 2 * p^2 - 3 * log2(n)");
    sp_textbuf_reset(&b);
    m = (sp_pmnf2_model){
        .form = SP_PMNF2_PRODUCT_N, .f = {1, 1, 0}, .g = {1, 1, 0}, .c = {1, 2, 3}};
    sp_pmnf2_text(&m, "p", "n", &b);
    assert_string_equal(sp_textbuf_str(&b), "1 + 2 * p * n + 3 * n");
    sp_textbuf_reset(&b);
    m = (sp_pmnf2_model){.form = SP_PMNF2_N, .g = {4, 3, 2}, .c = {1, 2, 0}};
    sp_pmnf2_text(&m, "p", "n", &b);
    assert_string_equal(sp_textbuf_str(&b), "1 + 2 * n^(4/3) * log2(n)^2");
    sp_textbuf_reset(&b);
    m = (sp_pmnf2_model){.form = SP_PMNF2_CONSTANT, .c = {0.5, 0, 0}};
    sp_pmnf2_text(&m, "p", "n", &b);
    assert_string_equal(sp_textbuf_str(&b), "0.5");
    sp_textbuf_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_pairs),    cmocka_unit_test(exact_other_forms),
        cmocka_unit_test(noisy_recovery), cmocka_unit_test(too_small),
        cmocka_unit_test(text_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
