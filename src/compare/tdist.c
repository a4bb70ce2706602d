/*
 * Student's t distribution: the two-sided tail probability through the
 * regularized incomplete beta function (evaluated by its continued fraction
 * with the modified Lentz method), and its inverse by bisection.
 */
#include <math.h>

#include "compare/compare_internal.h"

/* Beyond this many degrees of freedom the normal tail is exact to ~1e-5 relative. */
#define NORMAL_DF 1e5
#define TINY      1e-300

/* The continued fraction of I_x(a, b) (without its prefactor). */
static double beta_fraction(double x, double a, double b) {
    double f = TINY, c = f, d = 0.0;
    for (int i = 0; i < 20000; i++) {
        double num;
        int m = i / 2;
        if (i == 0)
            num = 1.0;
        else if (i % 2 == 0)
            num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        else
            num = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 + num * d;
        if (fabs(d) < TINY) d = TINY;
        d = 1.0 / d;
        c = 1.0 + num / c;
        if (fabs(c) < TINY) c = TINY;
        double cd = c * d;
        f *= cd;
        if (fabs(1.0 - cd) < 1e-15) break;
    }
    return f;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double incomplete_beta(double x, double a, double b) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    double log_front = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0)) return exp(log_front) * beta_fraction(x, a, b) / a;
    return 1.0 - exp(log_front) * beta_fraction(1.0 - x, b, a) / b;
}

double cmp_t_two_sided_p(double t, double df) {
    t = fabs(t);
    if (isnan(t) || isnan(df) || df <= 0.0) return NAN;
    if (isinf(t)) return 0.0;
    if (df > NORMAL_DF) return erfc(t / sqrt(2.0));
    return incomplete_beta(df / (df + t * t), 0.5 * df, 0.5);
}

double cmp_t_quantile_two_sided(double p, double df) {
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0)) return NAN;
    double lo = 0.0, hi = 1.0;
    while (cmp_t_two_sided_p(hi, df) > p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (cmp_t_two_sided_p(mid, df) > p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
