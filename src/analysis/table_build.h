/* The parts of sp_table_rows_build() (table_rows.c, table_fallback.c, table_order.c). */
#ifndef SP_ANALYSIS_TABLE_BUILD_H
#define SP_ANALYSIS_TABLE_BUILD_H

#include "analysis/filter.h"
#include "analysis/path_trie.h"

typedef enum sp_table_sort {
    SP_SORT_START = 0,
    SP_SORT_TOTAL,
    SP_SORT_CALLS,
    SP_SORT_AVG,
    SP_SORT_MIN,
    SP_SORT_MAX,
    SP_SORT_FIRST,
    SP_SORT_LAST,
    SP_SORT_STD,
    SP_SORT_P50,
    SP_SORT_P95,
    SP_SORT_P99,
    SP_SORT_IMBALANCE,
    SP_SORT_NAME
} sp_table_sort; /* in the order of sp_sort_keys */

/* Validates sort (NULL = "start") and percentage_mode (NULL = "coverage"). */
sp_status sp_table_parse_options(const char *sort, const char *percentage_mode,
                                 sp_table_sort *sort_key, int *exclusive_mode, sp_error *err);

/* Appends a flat row for every selected region that no path row names (§5.1
 * step 5, §5.2); trie NULL when there is no path table. */
sp_status sp_table_fallback_rows(const sp_results *r, const sp_compiled_filter *f,
                                 const uint32_t *regions, size_t num_regions,
                                 const sp_path_trie *trie, int exclusive_mode, sp_table_rows *out,
                                 sp_error *err);

/* Puts the rows (the first num_paths are path rows in insertion order, then
 * fallback rows) in display order (§5.3) and sets the session total.
 * parent[i] is the row of path row i's parent path, SIZE_MAX when that is no row. */
sp_status sp_table_order(sp_table_rows *rows, size_t num_paths, const size_t *parent,
                         sp_table_sort key, sp_error *err);

#endif
