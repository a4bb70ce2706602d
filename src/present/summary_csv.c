/* sp_write_summary_csv(): to_dataframe() rows as CSV (csv_escape.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>

#include "common/error.h"
#include "present/csv_escape.h"
#include "common/py_float.h"
#include "present/summary_fields.h"
#include "present/summary_out.h"

static void cell(sp_textbuf *out, const sp_summary_row *row, const sp_summary_field *f) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    switch (f->kind) {
    case SP_FIELD_NAME:
        sp_csv_field(out, *SP_FIELD_PTR(row, f, char *), 0);
        break;
    case SP_FIELD_TAGS: {
        const char *tags = *SP_FIELD_PTR(row, f, char *);
        sp_csv_field(out, tags ? tags : "[]", 1);
        break;
    }
    case SP_FIELD_RANK:
        sp_textbuf_printf(out, "%" PRId64, *SP_FIELD_PTR(row, f, int64_t));
        break;
    case SP_FIELD_COUNT:
        sp_textbuf_printf(out, "%" PRIu64, *SP_FIELD_PTR(row, f, uint64_t));
        break;
    case SP_FIELD_DOUBLE: {
        double v = *SP_FIELD_PTR(row, f, double);
        if (!isnan(v)) {
            sp_py_float_repr(v, num);
            sp_textbuf_append(out, num);
        }
        break;
    }
    }
}

sp_status sp_summary_rows_csv(sp_textbuf *out, const sp_summary_rows *rows, int per_rank) {
    size_t nf;
    const sp_summary_field *fields = sp_summary_fields(per_rank, &nf);
    for (size_t j = 0; j < nf; j++) {
        if (j) sp_textbuf_putc(out, ',');
        sp_textbuf_append(out, fields[j].key);
    }
    sp_textbuf_append(out, SP_CSV_EOL);
    for (size_t i = 0; i < rows->count; i++) {
        for (size_t j = 0; j < nf; j++) {
            if (j) sp_textbuf_putc(out, ',');
            cell(out, &rows->rows[i], &fields[j]);
        }
        sp_textbuf_append(out, SP_CSV_EOL);
    }
    return sp_textbuf_failed(out) ? SP_ERR_OUT_OF_MEMORY : SP_OK;
}

sp_status sp_write_summary_csv(const sp_results *results, FILE *out, const sp_filter *filter,
                               int per_rank, sp_error *err) {
    return sp_summary_write(results, out, filter, per_rank, sp_summary_rows_csv, "CSV", err);
}
