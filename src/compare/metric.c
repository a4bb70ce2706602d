/* Names and labels of the metrics and verdicts. */
#include <string.h>

#include "compare/compare_internal.h"

static const char *const metric_names[SP_METRIC_COUNT_] = {
    "total", "avg", "min", "max", "p50", "p95", "p99", "imbalance", "calls", "exclusive"};

/* The Python package's labels, and ours for exclusive. */
static const char *const metric_labels[SP_METRIC_COUNT_] = {
    "total [s]", "avg [s]", "min [s]",       "max [s]", "p50 [s]",
    "p95 [s]",   "p99 [s]", "imbalance [%]", "calls",   "exclusive [s]"};

const char *sp_metric_name(sp_metric metric) {
    return (unsigned)metric < SP_METRIC_COUNT_ ? metric_names[metric] : NULL;
}

const char *sp_metric_label(sp_metric metric) {
    return (unsigned)metric < SP_METRIC_COUNT_ ? metric_labels[metric] : NULL;
}

int sp_metric_parse(const char *name, sp_metric *out) {
    for (int i = 0; name && i < SP_METRIC_COUNT_; i++)
        if (strcmp(name, metric_names[i]) == 0) {
            *out = (sp_metric)i;
            return 1;
        }
    return 0;
}

int sp_metric_needs_events(sp_metric metric) {
    return metric == SP_METRIC_P50 || metric == SP_METRIC_P95 || metric == SP_METRIC_P99;
}

const char *sp_verdict_text(sp_verdict verdict) {
    switch (verdict) {
    case SP_VERDICT_SLOWER:
        return "slower";
    case SP_VERDICT_FASTER:
        return "faster";
    case SP_VERDICT_NO_CHANGE:
        return "no change";
    case SP_VERDICT_NO_PER_CALL_DATA:
        return "n/a (no per-call data)";
    case SP_VERDICT_ONE_SIDE:
        return "n/a (only in one run)";
    case SP_VERDICT_TOO_FEW_CALLS:
        return "n/a (too few calls)";
    case SP_VERDICT_NOT_A_DURATION:
        return "n/a (not a per-call time)";
    case SP_VERDICT_INCONCLUSIVE:
        return "inconclusive";
    case SP_VERDICT_ONE_RUN:
        return "inconclusive (1 run per side)";
    default:
        return "";
    }
}
