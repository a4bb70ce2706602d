/* The tally of a calibration (docs/compare.md § Calibration): verdicts of repeated comparisons. */
#include <math.h>

#include "compare/compare_internal.h"

void sp_calibration_count(sp_calibration_counts *c, const sp_significance *s) {
    c->pairs++;
    switch (s->verdict) {
    case SP_VERDICT_SLOWER:
        c->slower++;
        break;
    case SP_VERDICT_FASTER:
        c->faster++;
        break;
    case SP_VERDICT_NO_CHANGE:
        c->no_change++;
        break;
    case SP_VERDICT_INCONCLUSIVE:
    case SP_VERDICT_ONE_RUN:
        c->inconclusive++;
        break;
    default:
        c->undecided++;
        break;
    }
    if (isfinite(s->spread_a) && isfinite(s->spread_b)) {
        c->spread_sum2 += (s->spread_a * s->spread_a + s->spread_b * s->spread_b) / 2.0;
        c->spread_pairs++;
    }
}

double sp_calibration_noise(const sp_calibration_counts *c) {
    return c->spread_pairs ? sqrt(c->spread_sum2 / c->spread_pairs) : NAN;
}
