/*
 * The columns of summary() rows as to_dataframe() names them
 * (the Python summary() rows), shared by the CSV and JSON writers.
 */
#ifndef SP_PRESENT_SUMMARY_FIELDS_H
#define SP_PRESENT_SUMMARY_FIELDS_H

#include <stddef.h>

#include "scope_profiler/results.h"

typedef enum sp_field_kind {
    SP_FIELD_NAME,   /* const char *name */
    SP_FIELD_RANK,   /* int64_t rank */
    SP_FIELD_COUNT,  /* uint64_t */
    SP_FIELD_DOUBLE, /* double; NaN = unknown (null / empty cell) */
    SP_FIELD_TAGS    /* const char *tags, a JSON list */
} sp_field_kind;

typedef struct sp_summary_field {
    const char *key;
    sp_field_kind kind;
    size_t offset; /* in sp_summary_row */
} sp_summary_field;

/* The fields of pooled rows (per_rank == 0) or per-rank rows; *count set. */
const sp_summary_field *sp_summary_fields(int per_rank, size_t *count);

#define SP_FIELD_PTR(row, field, type) ((const type *)((const char *)(row) + (field)->offset))

#endif
