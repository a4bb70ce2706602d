/*
 * tabulate's "rounded_outline" format, which the Python package's diff and
 * check print: every column ruled off ("│"), "┬", "┼" and "┴" at the
 * junctions, cells left-aligned with one space on either side, each column as
 * wide as its header plus two or its longest cell. Each line has a two-space
 * margin. (The summary table's layout, table_layout.c, has no inner rules.)
 */
#ifndef SP_PRESENT_BOX_TABLE_H
#define SP_PRESENT_BOX_TABLE_H

#include <stddef.h>

#include "common/text_buffer.h"

/* headers[ncols]; cells[nrows * ncols], row-major. */
void sp_box_table(sp_textbuf *out, const char *const *headers, size_t ncols,
                  const char *const *cells, size_t nrows);

/* sp_box_table within max_width columns (0: no limit): a table too wide is
 * printed as several tables, each repeating the first column, with a blank
 * line between; first-column cells longer than the room left are cut with
 * "…". Where not even the first column and the widest other one fit, each row
 * is printed as a record: its first cell on a line, then one "header  value"
 * line per other column (the value on a line of its own when it is too long
 * for that, and cut with "…" at max_width). */
void sp_box_table_fit(sp_textbuf *out, const char *const *headers, size_t ncols,
                      const char *const *cells, size_t nrows, size_t max_width);

#endif
