/* The regression budget of `check` (the Python package's check_rows(), plus --significant). */
#include "compare/compare_internal.h"

/* With significance, a row that has a verdict must be "slower" to fail; rows
 * the test cannot judge (aggregate files, too few calls) fall back to the budget. */
static int significant_enough(const sp_significance *s) {
    switch (s->verdict) {
    case SP_VERDICT_FASTER:
    case SP_VERDICT_NO_CHANGE:
        return 0;
    default:
        return 1;
    }
}

int sp_compare_row_violates(const sp_compare_row *row, const sp_check_options *check) {
    if (!row || !check) return 0;
    if (row->has_pct && row->pct > check->max_regression)
        return !check->significant || significant_enough(&row->sig);
    return !row->in_a && check->fail_on_new;
}
