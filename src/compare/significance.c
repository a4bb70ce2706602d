/*
 * The verdict of one row (docs/compare.md § Significance). Both tests are
 * Welch's unequal-variance t test on a log scale, so the interval for the
 * ratio b/a is exp(log ratio +/- t * se): never negative, and as wide on
 * either side in relative terms.
 * - The run-level test: the samples are the logarithms of the runs' values
 *   (one per run), se^2 = var_a / n_a + var_b / n_b.
 * - The per-call test (--per-call): the samples are the calls; the delta
 *   method gives the standard error of log(mean_b / mean_a) as
 *   sqrt(var_a / (n_a mean_a^2) + var_b / (n_b mean_b^2)).
 * A significant row is slower or faster; otherwise it is "no change" when
 * the interval lies inside the equivalence margin, else inconclusive.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_internal.h"

/* Beyond this, "more runs" is no advice: the spread itself is the problem. */
#define MAX_RUNS_NEEDED 1000u

static sp_significance no_verdict(sp_verdict v) {
    sp_significance s = {v, SP_SIG_NONE, NAN, NAN, NAN, NAN, NAN, 0, 0, NAN, NAN, 0, ""};
    snprintf(s.text, sizeof s.text, "%s", sp_verdict_text(v));
    return s;
}

static double effective_level(double level) {
    return level > 0.0 && level < 1.0 ? level : SP_COMPARE_DEFAULT_LEVEL;
}

static double effective_margin(double margin) {
    return margin > 0.0 && margin < 1.0 ? margin : SP_COMPARE_DEFAULT_MARGIN;
}

/* The verdict from the p-value and the interval, and its printed text. */
static void decide(sp_significance *s, double level, double margin) {
    if (s->p_value < level)
        s->verdict = s->ratio > 1.0 ? SP_VERDICT_SLOWER : SP_VERDICT_FASTER;
    else if (s->ratio_low >= 1.0 - margin && s->ratio_high <= 1.0 + margin)
        s->verdict = SP_VERDICT_NO_CHANGE;
    else
        s->verdict = SP_VERDICT_INCONCLUSIVE;
    const char *base = sp_verdict_text(s->verdict);
    if (s->method == SP_SIG_CALLS)
        snprintf(s->text, sizeof s->text, "%s (per-call)", base);
    else if (s->verdict == SP_VERDICT_INCONCLUSIVE && s->runs_needed == UINT32_MAX)
        snprintf(s->text, sizeof s->text, "%s (over %u runs per side needed)", base,
                 MAX_RUNS_NEEDED);
    else if (s->verdict == SP_VERDICT_INCONCLUSIVE && s->runs_needed)
        snprintf(s->text, sizeof s->text, "%s (about %u runs per side needed)", base,
                 s->runs_needed);
    else
        snprintf(s->text, sizeof s->text, "%s", base);
}

/* Fills df, p-value and interval from the log ratio and the two variance terms. */
static void welch(sp_significance *s, double log_ratio, double ua, double ub, uint64_t n_a,
                  uint64_t n_b, double level) {
    double se = sqrt(ua + ub);
    s->ratio = exp(log_ratio);
    if (!(se > 0.0)) { /* no spread at all: the ratio is exact */
        s->df = INFINITY;
        s->ratio_low = s->ratio_high = s->ratio;
        s->p_value = log_ratio == 0.0 ? 1.0 : 0.0;
        return;
    }
    double den = ua * ua / (double)(n_a - 1) + ub * ub / (double)(n_b - 1);
    s->df = den > 0.0 ? (ua + ub) * (ua + ub) / den : INFINITY;
    s->p_value = cmp_t_two_sided_p(log_ratio / se, s->df);
    double t = cmp_t_quantile_two_sided(level, s->df);
    s->ratio_low = exp(log_ratio - t * se);
    s->ratio_high = exp(log_ratio + t * se);
}

/* A mean of zero: nothing to divide by; equal zeros are no change. */
static sp_significance zero_mean(sp_significance s, double mean_a, double mean_b) {
    if (mean_a == mean_b) {
        s.verdict = SP_VERDICT_NO_CHANGE;
        s.ratio = s.ratio_low = s.ratio_high = 1.0;
        s.p_value = 1.0;
    } else {
        s.verdict = mean_b > mean_a ? SP_VERDICT_SLOWER : SP_VERDICT_FASTER;
        s.ratio = s.ratio_low = s.ratio_high = mean_b > mean_a ? INFINITY : 0.0;
        s.p_value = 0.0;
    }
    snprintf(s.text, sizeof s.text, "%s (per-call)", sp_verdict_text(s.verdict));
    return s;
}

sp_significance sp_significance_test(uint64_t n_a, double mean_a, double var_a, uint64_t n_b,
                                     double mean_b, double var_b, double count_factor, double level,
                                     double margin) {
    if (n_a < 2 || n_b < 2) return no_verdict(SP_VERDICT_TOO_FEW_CALLS);
    level = effective_level(level);
    if (!(count_factor > 0.0)) count_factor = 1.0;
    sp_significance s = no_verdict(SP_VERDICT_NO_CHANGE);
    s.method = SP_SIG_CALLS;
    s.samples_a = n_a;
    s.samples_b = n_b;
    if (!(mean_a > 0.0) || !(mean_b > 0.0)) return zero_mean(s, mean_a, mean_b);
    double log_ratio = log(mean_b / mean_a) + log(count_factor);
    welch(&s, log_ratio, var_a / ((double)n_a * mean_a * mean_a),
          var_b / ((double)n_b * mean_b * mean_b), n_a, n_b, level);
    decide(&s, level, effective_margin(margin));
    return s;
}

/* Mean and sample variance of the logarithms; 0 when a value is not > 0. */
static int log_moments(const double *v, size_t n, double *mean, double *var) {
    double m = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] > 0.0) || !isfinite(v[i])) return 0;
        double x = log(v[i]), d = x - m;
        m += d / (double)(i + 1);
        m2 += d * (x - m);
    }
    *mean = m;
    *var = n > 1 ? m2 / (double)(n - 1) : 0.0;
    return 1;
}

/*
 * The runs per side (equal on both) at which the observed spread gives a
 * decision: an interval narrow enough either to exclude 1 (half-width below
 * |log ratio|) or to fit inside the margin, whichever comes first.
 */
static uint32_t runs_for_decision(double log_ratio, double var_a, double var_b, double level,
                                  double margin) {
    double to_margin = fmin(log1p(margin) - log_ratio, log_ratio - log1p(-margin));
    double half = fmax(to_margin, fabs(log_ratio));
    double v = var_a + var_b;
    if (!(half > 0.0) || !(v > 0.0)) return 0;
    double shape = (var_a * var_a + var_b * var_b) / (v * v); /* df = (n - 1) / shape */
    for (uint32_t n = 2; n <= MAX_RUNS_NEEDED; n++) {
        double df = (double)(n - 1) / shape;
        if (cmp_t_quantile_two_sided(level, df) * sqrt(v / (double)n) < half) return n;
    }
    return UINT32_MAX;
}

sp_significance sp_significance_runs(const double *a, size_t n_a, const double *b, size_t n_b,
                                     double level, double margin) {
    if (n_a == 1 && n_b == 1) return no_verdict(SP_VERDICT_ONE_RUN);
    if (n_a < 2 || n_b < 2) {
        sp_significance s = no_verdict(SP_VERDICT_TOO_FEW_CALLS);
        snprintf(s.text, sizeof s.text, "n/a (fewer than 2 runs on a side)");
        return s;
    }
    level = effective_level(level);
    margin = effective_margin(margin);
    double ma, va, mb, vb;
    if (!log_moments(a, n_a, &ma, &va) || !log_moments(b, n_b, &mb, &vb))
        return no_verdict(SP_VERDICT_NOT_A_DURATION);
    sp_significance s = no_verdict(SP_VERDICT_NO_CHANGE);
    s.method = SP_SIG_RUNS;
    s.samples_a = n_a;
    s.samples_b = n_b;
    s.spread_a = sqrt(va);
    s.spread_b = sqrt(vb);
    double log_ratio = mb - ma;
    welch(&s, log_ratio, va / (double)n_a, vb / (double)n_b, n_a, n_b, level);
    if (!(s.p_value < level) && !(s.ratio_low >= 1.0 - margin && s.ratio_high <= 1.0 + margin)) {
        s.runs_needed = runs_for_decision(log_ratio, va, vb, level, margin);
        if (s.runs_needed && s.runs_needed != UINT32_MAX && s.runs_needed <= n_a &&
            s.runs_needed <= n_b)
            s.runs_needed = (uint32_t)(n_a > n_b ? n_a : n_b) + 1; /* df rounding: one more */
    }
    decide(&s, level, margin);
    return s;
}
