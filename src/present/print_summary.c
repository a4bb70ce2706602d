#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "present/run_info.h"
#include "present/table.h"

/* A bounded table (sp_print_summary_bounded) leaves out rows deeper than this:
 * each level indents every column by two more. */
#define SP_BOUNDED_TABLE_DEPTH 24

/* Moves the rows shallow enough to show to the front, in order (the others
 * keep their strings for sp_table_rows_free); returns how many, at most max_rows. */
static size_t shallow_rows_first(sp_table_rows *rows, size_t max_rows) {
    size_t kept = 0;
    for (size_t i = 0; i < rows->count && kept < max_rows; i++) {
        if (rows->rows[i].depth >= SP_BOUNDED_TABLE_DEPTH) continue;
        sp_table_row row = rows->rows[i];
        memmove(&rows->rows[kept + 1], &rows->rows[kept], (i - kept) * sizeof row);
        rows->rows[kept++] = row;
    }
    return kept;
}

sp_status sp_print_summary(const sp_results *results, FILE *out, const sp_print_options *options,
                           sp_error *err) {
    return sp_print_summary_bounded(results, out, options, 0, err);
}

sp_status sp_print_summary_bounded(const sp_results *results, FILE *out,
                                   const sp_print_options *options, size_t max_rows,
                                   sp_error *err) {
    return sp_print_summary_units(results, out, options, max_rows, 0, err);
}

sp_status sp_print_summary_units(const sp_results *results, FILE *out,
                                 const sp_print_options *options, size_t max_rows, int readable,
                                 sp_error *err) {
    static const sp_print_options defaults;
    if (!options) options = &defaults;
    if (!results || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_print_summary: no results or stream");
    const char *mode = options->percentage_mode ? options->percentage_mode : "coverage";
    if (strcmp(mode, "coverage") != 0 && strcmp(mode, "exclusive") != 0)
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "percentage_mode must be 'coverage' or 'exclusive'");
    if (!options->columns && options->num_columns)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "sp_print_summary: num_columns is set but columns is NULL");

    sp_table_column *cols = NULL;
    sp_table_rows rows = {0, NULL, 0, 0.0, 0};
    char *title = NULL;
    sp_status st = SP_OK;
    if (options->columns) {
        cols = malloc((options->num_columns ? options->num_columns : 1) * sizeof *cols);
        if (!cols) {
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        st = sp_table_columns_parse(options->columns, options->num_columns, cols, err);
        if (st) goto done;
    }
    const char *sort = options->sort;
    if (options->top && (!sort || !*sort)) sort = "total";
    st = sp_table_rows_build_capped(results, &options->filter, sort, mode, options->max_depth,
                                    &rows, err);
    if (st) goto done;
    int flat = sort && *sort && strcmp(sort, "start") != 0;
    if (flat)
        for (size_t i = 0; i < rows.count; i++) {
            rows.rows[i].depth = 0;
            rows.rows[i].has_children = 0;
        }
    sp_table_rows shown = rows;
    if (options->top && options->top < shown.count) shown.count = options->top;
    size_t left_out = 0;
    if (max_rows) {
        size_t all = shown.count;
        shown.count = shallow_rows_first(&rows, max_rows < all ? max_rows : all);
        left_out = all - shown.count;
    }
    /* Python: title or default_title(), so an empty title also gets the default */
    title =
        options->title && *options->title ? strdup(options->title) : sp_run_default_title(results);
    if (title && options->title_counts_rows) {
        char *counted = NULL;
        if (asprintf(&counted, "%s (%zu)", title, shown.count) < 0) counted = NULL;
        free(title);
        title = counted;
    }
    if (!title) {
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    sp_table_format fmt = {cols,
                           options->num_columns,
                           !strcmp(mode, "exclusive"),
                           options->ascii,
                           options->suppress_notes,
                           title,
                           sp_run_file_path(results),
                           options->max_width,
                           left_out,
                           !sp_results_has_events(results),
                           readable};
    st = sp_table_print(out, &shown, &fmt, err);
done:
    if (rows.rows) sp_table_rows_free(&rows);
    free(cols);
    free(title);
    return st;
}
