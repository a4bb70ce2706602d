/*
 * Text, JSON and CSV of comparisons (diff, check) and scaling studies
 * (docs/compare.md). The rows come computed from src/compare/; nothing here
 * computes a statistic.
 */
#ifndef SP_PRESENT_COMPARE_OUT_H
#define SP_PRESENT_COMPARE_OUT_H

#include <stddef.h>

#include "common/text_buffer.h"
#include "scope_profiler/compare.h"

/* The Python package's print_diff_table(): the title line, the box table
 * (region | M (a) | M (b) | delta | delta [%]), "Only in a/b" lines and an
 * empty line; "  (no regions to compare)" without rows. With significance,
 * three more columns: b/a, the interval and the verdict. */
void sp_compare_text(sp_textbuf *out, const sp_comparison *c, const char *title, int significance,
                     size_t max_width); /* max_width: sp_box_table_fit's, 0 = no limit */

/* What the documents say about the sides and the check. */
typedef struct sp_compare_doc {
    const char *command; /* "diff" or "check" */
    const char *title_a, *title_b;
    const char *const *files_a;
    size_t num_files_a;
    const char *const *files_b;
    size_t num_files_b;
    int significance;
    const sp_check_options *check; /* NULL for diff */
} sp_compare_doc;

/* The JSON document (two-space indentation, final newline); NULL when out of memory. */
char *sp_compare_json(const sp_comparison *c, const sp_compare_doc *doc);

/* CSV with a header line, CRLF line ends. */
void sp_compare_csv(sp_textbuf *out, const sp_comparison *c, const sp_compare_doc *doc);

/* A scaling study as a box table / JSON / CSV. */
void sp_scaling_text(sp_textbuf *out, const sp_scaling *s, size_t max_width);
char *sp_scaling_json(const sp_scaling *s, const char *const *files, size_t num_files);
void sp_scaling_csv(sp_textbuf *out, const sp_scaling *s);

#endif
