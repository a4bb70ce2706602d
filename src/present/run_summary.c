#include <stdio.h>

#include "analysis/results_model.h"

sp_status sp_internal_print_run_summary(const sp_results *results, FILE *out);

sp_status sp_internal_print_run_summary(const sp_results *results, FILE *out) {
    const sp_model *m = sp_results_model(results);
    fprintf(out, "scope-profiler: %zu region(s), %zu call(s)\n", m->num_regions, m->num_events);
    return SP_OK;
}
