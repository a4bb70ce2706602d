/* The regression budget of `check` (the Python package's check_rows(), plus --significant). */
#include "compare/compare_internal.h"

/* With significance, a row that has a verdict must be "slower" to fail (or,
 * with strict, inconclusive with an interval reaching above the budget); rows
 * the test cannot judge at all ("n/a ...") fall back to the budget. */
static int significant_enough(const sp_significance *s) {
    switch (s->verdict) {
    case SP_VERDICT_FASTER:
    case SP_VERDICT_NO_CHANGE:
    case SP_VERDICT_INCONCLUSIVE: /* strict_inconclusive() decides these */
    case SP_VERDICT_ONE_RUN:
        return 0;
    default:
        return 1;
    }
}

/* Strict: an inconclusive row fails when a regression beyond the budget is not ruled out. */
static int strict_inconclusive(const sp_compare_row *row, const sp_check_options *check) {
    const sp_significance *s = &row->sig;
    if (!check->strict || !row->in_a || !row->in_b) return 0;
    if (s->verdict == SP_VERDICT_ONE_RUN) return 1;
    return s->verdict == SP_VERDICT_INCONCLUSIVE &&
           !(s->ratio_high <= 1.0 + check->max_regression / 100.0);
}

int sp_compare_row_violates(const sp_compare_row *row, const sp_check_options *check) {
    if (!row || !check) return 0;
    if (check->significant && strict_inconclusive(row, check)) return 1;
    if (row->has_pct && row->pct > check->max_regression)
        return !check->significant || significant_enough(&row->sig);
    return !row->in_a && check->fail_on_new;
}
