/* The balance of one call path of the summary table. */
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"

sp_status sp_results_path_balance(const sp_results *results, const char *call_path,
                                  sp_balance *ranks, sp_balance *threads, sp_error *err) {
    if (!results || !call_path)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_results_path_balance: NULL");
    sp_table_rows rows;
    sp_status st = sp_table_rows_build(results, NULL, NULL, NULL, &rows, err);
    if (st != SP_OK) return st;
    int has_paths = 0;
    const sp_table_row *found = NULL;
    for (size_t i = 0; i < rows.count && !found; i++) {
        has_paths |= rows.rows[i].call_path != NULL;
        if (rows.rows[i].call_path && strcmp(rows.rows[i].call_path, call_path) == 0)
            found = &rows.rows[i];
    }
    if (found) {
        if (ranks) *ranks = found->rank_balance;
        if (threads) *threads = found->thread_balance;
    } else if (!has_paths && rows.count) {
        st = sp_error_set(err, SP_ERR_UNAVAILABLE, "%s has no call paths (no per-call events)",
                          sp_results_path(results));
    } else {
        st = sp_error_set(err, SP_ERR_NO_SUCH_REGION, "%s: no call path \"%s\"",
                          sp_results_path(results), call_path);
    }
    sp_table_rows_free(&rows);
    return st;
}
