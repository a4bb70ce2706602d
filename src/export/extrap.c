/* sp_extrap_lines(): call paths of one run as Extra-P JSON Lines measurements. */
#include "export/extrap.h"

#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/json_escape.h"
#include "common/py_float.h"

static void number(sp_textbuf *out, double v) {
    if (v == floor(v) && fabs(v) < 9e15) {
        sp_textbuf_printf(out, "%lld", (long long)v);
        return;
    }
    char text[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(v, text);
    sp_textbuf_append(out, text);
}

/* "a > b > c" as Extra-P writes call paths: "a->b->c". */
static void callpath(sp_textbuf *out, const char *path) {
    sp_textbuf joined = SP_TEXTBUF_INIT;
    for (const char *p = path; *p;) {
        const char *sep = strstr(p, " > ");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        sp_textbuf_append_n(&joined, p, n);
        if (!sep) break;
        sp_textbuf_append(&joined, "->");
        p = sep + 3;
    }
    sp_json_escape(out, sp_textbuf_str(&joined) ? sp_textbuf_str(&joined) : "");
    if (sp_textbuf_failed(&joined)) out->failed = 1;
    sp_textbuf_free(&joined);
}

sp_status sp_extrap_lines(const sp_results *run, const char *const *param_names,
                          const double *param_values, size_t num_params, const sp_filter *filter,
                          sp_textbuf *out, sp_error *err) {
    sp_table_rows rows;
    sp_status st = sp_table_rows_build(run, filter, "start", NULL, &rows, err);
    if (st != SP_OK) return st;
    size_t ranks = filter && filter->num_ranks ? filter->num_ranks : sp_results_num_ranks(run);
    for (size_t i = 0; i < rows.count; i++) {
        const sp_table_row *row = &rows.rows[i];
        if (!row->has_timing || !row->calls) continue;
        sp_textbuf_append(out, "{\"params\": {");
        for (size_t k = 0; k < num_params; k++) {
            if (k) sp_textbuf_append(out, ", ");
            sp_json_escape(out, param_names[k]);
            sp_textbuf_append(out, ": ");
            number(out, param_values[k]);
        }
        sp_textbuf_append(out, "}, \"callpath\": ");
        callpath(out, row->call_path ? row->call_path : row->name);
        sp_textbuf_append(out, ", \"metric\": \"time\", \"value\": ");
        number(out, row->total / (double)(ranks ? ranks : 1));
        sp_textbuf_append(out, "}\n");
    }
    sp_table_rows_free(&rows);
    if (sp_textbuf_failed(out)) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    return SP_OK;
}
