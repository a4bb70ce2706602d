/* The table sp_finalize() prints unless quiet (src/record/session.c). */
#include <stdio.h>

#include "present/table.h"
#include "scope_profiler/results.h"

/* What finalize prints stays bounded whatever was recorded (docs/robustness.md). */
#define SP_RUN_SUMMARY_MAX_ROWS 100

sp_status sp_internal_print_run_summary(const sp_results *results, FILE *out);

sp_status sp_internal_print_run_summary(const sp_results *results, FILE *out) {
    sp_error err = {SP_OK, ""};
    sp_print_options options = {0};
    options.columns = sp_table_parallel_columns(results, &options.num_columns);
    /* read by a person: readable units, as inspect's table */
    sp_status st =
        sp_print_summary_units(results, out, &options, SP_RUN_SUMMARY_MAX_ROWS, 1, &err);
    if (st != SP_OK)
        fprintf(stderr, "scope-profiler: cannot print the run summary: %s\n", err.message);
    return st;
}
