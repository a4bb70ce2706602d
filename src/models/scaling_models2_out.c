/* `scaling --model --x P,N` as a box table, JSON and CSV (docs/scaling.md, "Two parameters"). */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

#include "models/scaling_models.h"
#include "models/scaling_models2.h"
#include "present/box_table.h"
#include "present/csv_escape.h"
#include "present/json_build.h"

#define NCOLS 5

static const char *const FORM_NAMES[SP_PMNF2_FORMS] = {
    "constant", "p", "n", "product", "sum", "product_plus_p", "product_plus_n"};

static int modelled(const sp_pmnf2_model *m) {
    return sp_pmnf2_grid_enough(&m->grid) && !isnan(m->cv_smape);
}

static int row_cells(const sp_scaling_models2 *ms, size_t i, char **cells) {
    const sp_pmnf2_model *m = &ms->models[i];
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, ms->p_study->regions[i].name);
    cells[0] = sp_textbuf_take(&b);
    if (modelled(m))
        sp_pmnf2_text(m, "p", "n", &b);
    else
        sp_textbuf_printf(&b, "- (calls at %zu of %zu runs' cells)", m->grid.cells,
                          ms->p_study->num_runs);
    cells[1] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.3g" : "-", m->cv_smape);
    cells[2] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.3g" : "-", m->smape);
    cells[3] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, modelled(m) ? "%.6g" : "-",
                      sp_pmnf2_eval(m, ms->predict_p, ms->predict_n));
    cells[4] = sp_textbuf_take(&b);
    for (int j = 0; j < NCOLS; j++)
        if (!cells[j]) return 0;
    return 1;
}

void sp_scaling_models2_text(sp_textbuf *out, const sp_scaling_models2 *ms) {
    const sp_scaling *ps = ms->p_study, *ns = ms->n_study;
    size_t rows = ps->num_regions, ncols = ms->has_predict ? NCOLS : NCOLS - 1;
    sp_textbuf_printf(
        out, "Models over %s and %s (p = %s, %zu values; n = %s, %zu values; %zu runs)\n",
        ps->x_name, ns->x_name, ps->x_name, ps->num_x, ns->x_name, ns->num_x, ps->num_runs);
    sp_textbuf_append(out, ps->metric == SP_METRIC_TOTAL
                               ? "time: total per rank over the selected ranks [s]\n"
                               : "time: mean duration per call over the selected ranks [s]\n");
    sp_textbuf_append(out, "form: Extra-P's multi-parameter normal form, the terms of p and n "
                           "multiplied or added, chosen by leave-one-out cross-validated SMAPE\n");
    sp_textbuf_printf(out, "\nRegions (%zu)\n", rows);
    char **cells = calloc(rows * NCOLS + 1, sizeof *cells);
    int ok = cells != NULL;
    for (size_t i = 0; ok && i < rows; i++)
        ok = row_cells(ms, i, cells + i * NCOLS);
    char predict[96];
    snprintf(predict, sizeof predict, "t(p=%.6g, n=%.6g) [s]", ms->predict_p, ms->predict_n);
    const char *headers[NCOLS] = {"region", "model [s]", "CV SMAPE %", "SMAPE %", predict};
    /* without --predict the last column is dropped: the same cells, four to a row */
    char **shown = ncols == NCOLS ? cells : calloc(rows * ncols + 1, sizeof *shown);
    for (size_t i = 0; ok && shown && shown != cells && i < rows; i++)
        for (size_t j = 0; j < ncols; j++)
            shown[i * ncols + j] = cells[i * NCOLS + j];
    if (ok && shown)
        sp_box_table(out, headers, ncols, (const char *const *)shown, rows);
    else
        out->failed = 1;
    if (shown != cells) free(shown);
    for (size_t i = 0; cells && i < rows * NCOLS; i++)
        free(cells[i]);
    free(cells);
    sp_textbuf_putc(out, '\n');
}

static struct json_object *term_json(const sp_pmnf_term *t) {
    struct json_object *o = json_object_new_object();
    char e[16];
    if (t) sp_pmnf_exponent_text(*t, e, sizeof e);
    int ok = o && sp_json_add_string(o, "poly_exponent", t ? e : "0") &&
             sp_models_json_number(o, "poly_exponent_value", t ? (double)t->num / t->den : 0.0) &&
             sp_json_add_int(o, "log_exponent", t ? t->log_exp : 0);
    if (!ok) json_object_put(o);
    return ok ? o : NULL;
}

static int uses_p(sp_pmnf2_form f) {
    return f != SP_PMNF2_CONSTANT && f != SP_PMNF2_N;
}

static int uses_n(sp_pmnf2_form f) {
    return f != SP_PMNF2_CONSTANT && f != SP_PMNF2_P;
}

static struct json_object *model_json(const sp_scaling_models2 *ms, size_t i) {
    const sp_pmnf2_model *m = &ms->models[i];
    struct json_object *o = json_object_new_object();
    int ok = o && sp_json_add_string(o, "name", ms->p_study->regions[i].name) &&
             sp_json_add_int(o, "cells", (int64_t)m->grid.cells) &&
             sp_json_add_int(o, "measurements", (int64_t)m->grid.points);
    if (ok && !modelled(m)) {
        ok = sp_json_add_null(o, "model");
        if (!ok) json_object_put(o);
        return ok ? o : NULL;
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_pmnf2_text(m, "p", "n", &b);
    struct json_object *coef = json_object_new_array();
    for (size_t j = 0; ok && coef && j < 3; j++)
        ok = sp_json_append(coef, json_object_new_double(m->c[j]));
    ok = ok && coef && sp_textbuf_str(&b) && sp_json_add_string(o, "model", sp_textbuf_str(&b)) &&
         sp_json_add_string(o, "form", FORM_NAMES[m->form]) &&
         sp_json_add(o, "coefficients", coef) &&
         sp_json_add(o, "p_term", term_json(uses_p(m->form) ? &m->f : NULL)) &&
         sp_json_add(o, "n_term", term_json(uses_n(m->form) ? &m->g : NULL)) &&
         sp_models_json_number(o, "cv_smape_percent", m->cv_smape) &&
         sp_models_json_number(o, "smape_percent", m->smape);
    sp_textbuf_free(&b);
    if (ok && ms->has_predict) {
        struct json_object *p = json_object_new_object();
        ok = p && sp_models_json_number(p, "p", ms->predict_p) &&
             sp_models_json_number(p, "n", ms->predict_n) &&
             sp_models_json_number(p, "seconds", sp_pmnf2_eval(m, ms->predict_p, ms->predict_n));
        if (!ok) json_object_put(p);
        ok = ok && sp_json_add(o, "prediction", p);
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

char *sp_scaling_models2_json(const sp_scaling_models2 *ms, const char *const *files, size_t n) {
    const sp_scaling *ps = ms->p_study, *ns = ms->n_study;
    struct json_object *o = json_object_new_object(), *regions = json_object_new_array();
    struct json_object *params = json_object_new_array();
    int ok = o && regions && params && sp_json_append(params, json_object_new_string(ps->x_name)) &&
             sp_json_append(params, json_object_new_string(ns->x_name));
    for (size_t i = 0; ok && i < ps->num_regions; i++)
        ok = sp_json_append(regions, model_json(ms, i));
    ok = ok && sp_json_add_string(o, "metric", sp_metric_name(ps->metric)) &&
         sp_json_add_string(o, "form", "c0 + c1 * f(p) * g(n) [+ c2 * f(p) or g(n)], or a sum") &&
         sp_json_add_string(o, "selection", "leave-one-out cross-validated SMAPE over the cells") &&
         sp_json_add_int(o, "min_values_per_line", SP_PMNF_MIN_SIZES) &&
         sp_json_add(o, "files", sp_json_string_array(files, n));
    return sp_json_finish(o, ok, "parameters", params, "regions", regions);
}

static void csv_term(sp_textbuf *out, const sp_pmnf_term *t) {
    char e[16] = "0";
    if (t) sp_pmnf_exponent_text(*t, e, sizeof e);
    sp_textbuf_printf(out, ",%s,%d", e, t ? t->log_exp : 0);
}

void sp_scaling_models2_csv(sp_textbuf *out, const sp_scaling_models2 *ms) {
    sp_textbuf_append(out, "region,model,form,c0,c1,c2,p_poly_exponent,p_log_exponent,"
                           "n_poly_exponent,n_log_exponent,cv_smape_percent,smape_percent");
    if (ms->has_predict) sp_textbuf_append(out, ",predicted_p,predicted_n,predicted_seconds");
    sp_textbuf_append(out, SP_CSV_EOL);
    for (size_t i = 0; i < ms->p_study->num_regions; i++) {
        const sp_pmnf2_model *m = &ms->models[i];
        sp_csv_field(out, ms->p_study->regions[i].name, 0);
        sp_textbuf_putc(out, ',');
        if (!modelled(m)) {
            sp_textbuf_append(out, ",,,,,,,,,,");
            if (ms->has_predict) sp_textbuf_append(out, ",,,");
            sp_textbuf_append(out, SP_CSV_EOL);
            continue;
        }
        sp_textbuf model = SP_TEXTBUF_INIT;
        sp_pmnf2_text(m, "p", "n", &model);
        sp_csv_field(out, sp_textbuf_str(&model) ? sp_textbuf_str(&model) : "", 0);
        sp_textbuf_free(&model);
        sp_textbuf_printf(out, ",%s", FORM_NAMES[m->form]);
        for (size_t j = 0; j < 3; j++)
            sp_models_csv_number(out, m->c[j]);
        csv_term(out, uses_p(m->form) ? &m->f : NULL);
        csv_term(out, uses_n(m->form) ? &m->g : NULL);
        sp_models_csv_number(out, m->cv_smape);
        sp_models_csv_number(out, m->smape);
        if (ms->has_predict) {
            sp_models_csv_number(out, ms->predict_p);
            sp_models_csv_number(out, ms->predict_n);
            sp_models_csv_number(out, sp_pmnf2_eval(m, ms->predict_p, ms->predict_n));
        }
        sp_textbuf_append(out, SP_CSV_EOL);
    }
}
