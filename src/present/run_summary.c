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
    options.readable_units = 1; /* read by a person, as inspect's table */
    options.columns = sp_table_parallel_columns(results, &options.num_columns);
    sp_status st = sp_print_summary_bounded(results, out, &options, SP_RUN_SUMMARY_MAX_ROWS, &err);
    if (st != SP_OK)
        fprintf(stderr, "scope-profiler: cannot print the run summary: %s\n", err.message);
    return st;
}
