/* `scaling --model` as a box table, JSON and CSV (docs/scaling.md, "Models"). */
#include <math.h>
#include <stdlib.h>

#include "common/py_float.h"
#include "models/scaling_models.h"
#include "present/box_table.h"
#include "present/csv_escape.h"
#include "present/json_build.h"
#include "present/json_print.h"

#define NCOLS 6

static int modelled(const sp_pmnf_model *m) {
    return m->num_sizes >= SP_PMNF_MIN_SIZES;
}

static void list_xs(sp_textbuf *out, const sp_scaling *s) {
    for (size_t k = 0; k < s->num_x; k++)
        sp_textbuf_printf(out, "%s%.6g", k ? ", " : "", s->xs[k]);
}

static int row_cells(const sp_scaling_models *ms, size_t i, char **cells) {
    const sp_pmnf_model *m = &ms->models[i];
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, ms->study->regions[i].name);
    cells[0] = sp_textbuf_take(&b);
    if (modelled(m))
        sp_pmnf_text(m, "p", &b);
    else
        sp_textbuf_printf(&b, "- (calls at %zu sizes of %d needed)", m->num_sizes,
                          SP_PMNF_MIN_SIZES);
    cells[1] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.3g" : "-", m->cv_smape);
    cells[2] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.3g" : "-", m->smape);
    cells[3] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.4f" : "-", m->adj_r2);
    cells[4] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.6g" : "-", sp_pmnf_eval(m, ms->predict));
    cells[5] = sp_textbuf_take(&b);
    for (int j = 0; j < NCOLS; j++)
        if (!cells[j]) return 0;
    return 1;
}

void sp_scaling_models_text(sp_textbuf *out, const sp_scaling_models *ms) {
    const sp_scaling *s = ms->study;
    sp_textbuf_printf(out, "Models over %s (p = %s; %zu sizes: ", s->x_name, s->x_name, s->num_x);
    list_xs(out, s);
    sp_textbuf_printf(out, "; %zu runs)\n", s->num_runs);
    sp_textbuf_append(out, s->metric == SP_METRIC_TOTAL
                               ? "time: total per rank over the selected ranks [s]\n"
                               : "time: mean duration per call over the selected ranks [s]\n");
    sp_textbuf_append(out, "form: t(p) = c0 + c1 * p^i * log2(p)^j (Extra-P's normal form), "
                           "chosen by leave-one-out cross-validated SMAPE\n");
    sp_textbuf_printf(out, "\nRegions (%zu)\n", s->num_regions);
    size_t ncols = ms->has_predict ? NCOLS : NCOLS - 1;
    char **cells = calloc(s->num_regions * NCOLS + 1, sizeof *cells);
    int ok = cells != NULL;
    for (size_t i = 0; ok && i < s->num_regions; i++)
        ok = row_cells(ms, i, cells + i * NCOLS);
    char predict[64];
    snprintf(predict, sizeof predict, "t(p=%.6g) [s]", ms->predict);
    const char *headers[NCOLS] = {"region",  "model [s]", "CV SMAPE %",
                                  "SMAPE %", "adj. R2",   predict};
    /* without --predict the last column is dropped: the same cells, five to a row */
    char **shown = ncols == NCOLS ? cells : calloc(s->num_regions * ncols + 1, sizeof *shown);
    for (size_t i = 0; ok && shown && shown != cells && i < s->num_regions; i++)
        for (size_t j = 0; j < ncols; j++)
            shown[i * ncols + j] = cells[i * NCOLS + j];
    if (ok && shown)
        sp_box_table(out, headers, ncols, (const char *const *)shown, s->num_regions);
    else
        out->failed = 1;
    if (shown != cells) free(shown);
    for (size_t i = 0; cells && i < s->num_regions * NCOLS; i++)
        free(cells[i]);
    free(cells);
    sp_textbuf_putc(out, '\n');
}

int sp_models_json_number(struct json_object *o, const char *key, double v) {
    return isfinite(v) ? sp_json_add_double(o, key, v) : sp_json_add_null(o, key);
}

static struct json_object *model_json(const sp_scaling_models *ms, size_t i) {
    const sp_pmnf_model *m = &ms->models[i];
    struct json_object *o = json_object_new_object();
    int ok = o && sp_json_add_string(o, "name", ms->study->regions[i].name) &&
             sp_json_add_int(o, "sizes", (int64_t)m->num_sizes) &&
             sp_json_add_int(o, "measurements", (int64_t)m->num_points);
    if (ok && !modelled(m)) {
        ok = sp_json_add_null(o, "model");
        if (!ok) json_object_put(o);
        return ok ? o : NULL;
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_pmnf_text(m, "p", &b);
    char e[16];
    sp_pmnf_exponent_text(m->term, e, sizeof e);
    ok = ok && sp_textbuf_str(&b) && sp_json_add_string(o, "model", sp_textbuf_str(&b)) &&
         sp_json_add(o, "constant_model", json_object_new_boolean(m->constant)) &&
         sp_models_json_number(o, "c0", m->c0) &&
         sp_models_json_number(o, "c1", m->constant ? 0.0 : m->c1) &&
         sp_json_add_string(o, "poly_exponent", m->constant ? "0" : e) &&
         sp_models_json_number(o, "poly_exponent_value",
                               m->constant ? 0.0 : (double)m->term.num / m->term.den) &&
         sp_json_add_int(o, "log_exponent", m->constant ? 0 : m->term.log_exp) &&
         sp_models_json_number(o, "cv_smape_percent", m->cv_smape) &&
         sp_models_json_number(o, "smape_percent", m->smape) &&
         sp_models_json_number(o, "rss", m->rss) &&
         sp_models_json_number(o, "adjusted_r2", m->adj_r2);
    sp_textbuf_free(&b);
    if (ok && ms->has_predict) {
        struct json_object *p = json_object_new_object();
        ok = p && sp_models_json_number(p, "x", ms->predict) &&
             sp_models_json_number(p, "seconds", sp_pmnf_eval(m, ms->predict));
        if (!ok) json_object_put(p);
        ok = ok && sp_json_add(o, "prediction", p);
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

char *sp_scaling_models_json(const sp_scaling_models *ms, const char *const *files, size_t n) {
    const sp_scaling *s = ms->study;
    struct json_object *o = json_object_new_object(), *regions = json_object_new_array();
    struct json_object *xs = json_object_new_array();
    int ok = o && regions && xs;
    for (size_t k = 0; ok && k < s->num_x; k++)
        ok = sp_json_append(xs, json_object_new_double(s->xs[k]));
    for (size_t i = 0; ok && i < s->num_regions; i++)
        ok = sp_json_append(regions, model_json(ms, i));
    ok = ok && sp_json_add_string(o, "x", s->x_name) &&
         sp_json_add_string(o, "metric", sp_metric_name(s->metric)) &&
         sp_json_add_string(o, "form", "c0 + c1 * p^i * log2(p)^j") &&
         sp_json_add_string(o, "selection", "leave-one-out cross-validated SMAPE") &&
         sp_json_add_int(o, "min_sizes", SP_PMNF_MIN_SIZES) &&
         sp_json_add(o, "files", sp_json_string_array(files, n));
    return sp_json_finish(o, ok, "sizes", xs, "regions", regions);
}

void sp_models_csv_number(sp_textbuf *out, double v) {
    char text[SP_PY_FLOAT_REPR_SIZE];
    sp_textbuf_putc(out, ',');
    if (isfinite(v) && sp_py_float_repr(v, text)) sp_textbuf_append(out, text);
}

void sp_scaling_models_csv(sp_textbuf *out, const sp_scaling_models *ms) {
    sp_textbuf_append(out, "region,model,c0,c1,poly_exponent,log_exponent,cv_smape_percent,"
                           "smape_percent,adjusted_r2");
    if (ms->has_predict) sp_textbuf_append(out, ",predicted_x,predicted_seconds");
    sp_textbuf_append(out, SP_CSV_EOL);
    for (size_t i = 0; i < ms->study->num_regions; i++) {
        const sp_pmnf_model *m = &ms->models[i];
        sp_csv_field(out, ms->study->regions[i].name, 0);
        sp_textbuf_putc(out, ',');
        if (!modelled(m)) {
            sp_textbuf_append(out, ",,,,,,,");
            if (ms->has_predict) sp_textbuf_append(out, ",,");
            sp_textbuf_append(out, SP_CSV_EOL);
            continue;
        }
        sp_textbuf model = SP_TEXTBUF_INIT;
        sp_pmnf_text(m, "p", &model);
        sp_csv_field(out, sp_textbuf_str(&model) ? sp_textbuf_str(&model) : "", 0);
        sp_textbuf_free(&model);
        char e[16];
        sp_pmnf_exponent_text(m->term, e, sizeof e);
        sp_models_csv_number(out, m->c0);
        sp_models_csv_number(out, m->constant ? 0.0 : m->c1);
        sp_textbuf_printf(out, ",%s,%d", m->constant ? "0" : e, m->constant ? 0 : m->term.log_exp);
        sp_models_csv_number(out, m->cv_smape);
        sp_models_csv_number(out, m->smape);
        sp_models_csv_number(out, m->adj_r2);
        if (ms->has_predict) {
            sp_models_csv_number(out, ms->predict);
            sp_models_csv_number(out, sp_pmnf_eval(m, ms->predict));
        }
        sp_textbuf_append(out, SP_CSV_EOL);
    }
}
