/* Test support: the summary table text for the default columns (region,
 * total), rendered from sp_table_rows as python_semantics.md §5.4-5.6 lays it
 * out, to check that the rows reproduce the fixtures' .table.txt. */
#ifndef SP_TEST_TABLE_TEXT_H
#define SP_TEST_TABLE_TEXT_H

#include "analysis/analysis.h"

/* malloc'ed text ending in the final empty line. */
char *tt_render_default(const sp_table_rows *rows);

/* malloc'ed contents of a file, or NULL. */
char *tt_read_file(const char *path);

#endif
