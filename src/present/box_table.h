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

#endif
