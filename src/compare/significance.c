/*
 * The verdict of one row (docs/compare.md): Welch's test on the log of the
 * ratio of two means. The delta method gives the standard error of
 * log(mean_b / mean_a) as sqrt(var_a / (n_a mean_a^2) + var_b / (n_b mean_b^2))
 * and Welch-Satterthwaite its degrees of freedom; the interval for the ratio
 * is exp(log ratio +/- t * se), so it is never negative and is as wide on
 * either side in relative terms.
 */
#include <math.h>

#include "compare/compare_internal.h"

static sp_significance no_verdict(sp_verdict v) {
    sp_significance s = {v, SP_SIG_NONE, NAN, NAN, NAN, NAN, NAN, 0, 0};
    return s;
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
    return s;
}

sp_significance sp_significance_test(uint64_t n_a, double mean_a, double var_a, uint64_t n_b,
                                     double mean_b, double var_b, double count_factor,
                                     double level) {
    if (n_a < 2 || n_b < 2) return no_verdict(SP_VERDICT_TOO_FEW_CALLS);
    if (!(level > 0.0 && level < 1.0)) level = SP_COMPARE_DEFAULT_LEVEL;
    if (!(count_factor > 0.0)) count_factor = 1.0;
    sp_significance s = no_verdict(SP_VERDICT_NO_CHANGE);
    s.samples_a = n_a;
    s.samples_b = n_b;
    if (!(mean_a > 0.0) || !(mean_b > 0.0)) return zero_mean(s, mean_a, mean_b);

    double log_ratio = log(mean_b / mean_a) + log(count_factor);
    double ua = var_a / ((double)n_a * mean_a * mean_a);
    double ub = var_b / ((double)n_b * mean_b * mean_b);
    double se = sqrt(ua + ub);
    s.ratio = exp(log_ratio);
    if (!(se > 0.0)) { /* no spread at all: the ratio is exact */
        s.df = INFINITY;
        s.ratio_low = s.ratio_high = s.ratio;
        s.p_value = log_ratio == 0.0 ? 1.0 : 0.0;
    } else {
        double den = ua * ua / (double)(n_a - 1) + ub * ub / (double)(n_b - 1);
        s.df = den > 0.0 ? (ua + ub) * (ua + ub) / den : INFINITY;
        s.p_value = cmp_t_two_sided_p(log_ratio / se, s.df);
        double t = cmp_t_quantile_two_sided(level, s.df);
        s.ratio_low = exp(log_ratio - t * se);
        s.ratio_high = exp(log_ratio + t * se);
    }
    if (s.p_value < level) s.verdict = log_ratio > 0.0 ? SP_VERDICT_SLOWER : SP_VERDICT_FASTER;
    return s;
}
