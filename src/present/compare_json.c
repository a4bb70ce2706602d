/* diff and check as JSON and CSV (docs/compare.md § Machine output). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "common/py_float.h"
#include "present/compare_out.h"
#include "present/csv_escape.h"
#include "present/json_build.h"
#include "present/json_print.h"

static const char *method_name(sp_sig_method m) {
    return m == SP_SIG_CALLS ? "calls" : m == SP_SIG_RUNS ? "runs" : NULL;
}

/* A number, or null when unknown. */
static int add_number(struct json_object *o, const char *key, int known, double v) {
    return known && isfinite(v) ? sp_json_add_double(o, key, v) : sp_json_add_null(o, key);
}

static int add_value(struct json_object *o, const char *key, int known, double v, int calls) {
    if (known && calls && v == floor(v) && fabs(v) < 9e15)
        return sp_json_add_int(o, key, (int64_t)v);
    return add_number(o, key, known, v);
}

/* runs_needed: the runs per side an inconclusive run-level row would need at its observed
 * spread; null when not known or not applicable; beyond 1000 (more runs cannot decide it)
 * null with runs_needed_exceeds_1000 true. */
static int add_runs_needed(struct json_object *o, const sp_significance *s) {
    int unbounded = s->runs_needed == UINT32_MAX;
    int ok = s->runs_needed > 0 && !unbounded ? sp_json_add_int(o, "runs_needed", s->runs_needed)
                                              : sp_json_add_null(o, "runs_needed");
    return ok && sp_json_add(o, "runs_needed_exceeds_1000", json_object_new_boolean(unbounded));
}

static struct json_object *row_json(const sp_compare_row *r, const sp_comparison *c,
                                    const sp_compare_doc *doc) {
    struct json_object *o = json_object_new_object();
    int calls = c->metric == SP_METRIC_CALLS;
    int ok = sp_json_add_string(o, "name", r->name) && add_value(o, "a", r->in_a, r->a, calls) &&
             add_value(o, "b", r->in_b, r->b, calls) && add_value(o, "delta", 1, r->delta, calls) &&
             add_number(o, "pct", r->has_pct, r->pct) && sp_json_add_int(o, "runs_a", r->runs_a) &&
             sp_json_add_int(o, "runs_b", r->runs_b);
    if (ok && doc->significance) {
        const sp_significance *s = &r->sig;
        const char *method = method_name(s->method);
        ok = sp_json_add_string(o, "verdict", s->text) &&
             add_number(o, "ratio", 1, s->ratio) && add_number(o, "ratio_low", 1, s->ratio_low) &&
             add_number(o, "ratio_high", 1, s->ratio_high) &&
             add_number(o, "p_value", 1, s->p_value) &&
             (method ? sp_json_add_string(o, "method", method) : sp_json_add_null(o, "method")) &&
             add_runs_needed(o, s) && add_number(o, "spread_a", 1, s->spread_a) &&
             add_number(o, "spread_b", 1, s->spread_b);
    }
    if (ok && doc->check)
        ok = sp_json_add(o, "violation",
                         json_object_new_boolean(sp_compare_row_violates(r, doc->check)));
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static struct json_object *side_json(const char *title, const char *const *files, size_t n) {
    struct json_object *o = json_object_new_object();
    if (!sp_json_add_string(o, "title", title) ||
        !sp_json_add(o, "files", sp_json_string_array(files, n))) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static int add_check(struct json_object *doc_obj, const sp_comparison *c,
                     const sp_check_options *k) {
    int fail = 0;
    for (size_t i = 0; i < c->count; i++)
        fail = fail || sp_compare_row_violates(&c->rows[i], k);
    if (!sp_json_add_double(doc_obj, "max_regression", k->max_regression) ||
        !sp_json_add(doc_obj, "fail_on_new", json_object_new_boolean(k->fail_on_new)) ||
        !sp_json_add(doc_obj, "significant", json_object_new_boolean(k->significant)) ||
        !sp_json_add_string(doc_obj, "result", fail ? "FAIL" : "PASS"))
        return 0;
    struct json_object *violations = json_object_new_array();
    for (size_t i = 0; violations && i < c->count; i++)
        if (sp_compare_row_violates(&c->rows[i], k) &&
            !sp_json_append(violations, json_object_new_string(c->rows[i].name))) {
            json_object_put(violations);
            return 0;
        }
    return sp_json_add(doc_obj, "violations", violations);
}

char *sp_compare_json(const sp_comparison *c, const sp_compare_doc *doc) {
    struct json_object *o = json_object_new_object();
    struct json_object *rows = json_object_new_array();
    int ok = o && rows;
    for (size_t i = 0; ok && i < c->count; i++)
        ok = sp_json_append(rows, row_json(&c->rows[i], c, doc));
    ok = ok && sp_json_add_string(o, "command", doc->command) &&
         sp_json_add(o, "a", side_json(doc->title_a, doc->files_a, doc->num_files_a)) &&
         sp_json_add(o, "b", side_json(doc->title_b, doc->files_b, doc->num_files_b)) &&
         sp_json_add_string(o, "metric", sp_metric_name(c->metric)) &&
         sp_json_add_string(o, "by", c->by == SP_COMPARE_BY_PATH ? "path" : "region");
    if (ok && doc->significance)
        ok = sp_json_add_double(o, "level", c->level) && sp_json_add_double(o, "margin", c->margin);
    if (ok && c->error_a > 0.0) ok = sp_json_add_double(o, "relative_error_a", c->error_a);
    if (ok && c->error_b > 0.0) ok = sp_json_add_double(o, "relative_error_b", c->error_b);
    if (ok && doc->check) ok = add_check(o, c, doc->check);
    if (ok) {
        ok = sp_json_add(o, "rows", rows);
        rows = NULL;
    }
    ok = ok && sp_json_add(o, "only_in_a", sp_json_string_array(c->only_a, c->num_only_a)) &&
         sp_json_add(o, "only_in_b", sp_json_string_array(c->only_b, c->num_only_b));
    if (!ok) {
        json_object_put(rows);
        json_object_put(o);
        return NULL;
    }
    char *text = sp_json_document(o);
    json_object_put(o);
    return text;
}

static void append_repr(sp_textbuf *out, double v) {
    char text[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(v, text);
    sp_textbuf_append(out, text);
}

static void csv_number(sp_textbuf *out, int known, double v, int calls) {
    sp_textbuf_putc(out, ',');
    if (!known || !isfinite(v)) return;
    if (calls && v == floor(v) && fabs(v) < 9e15)
        sp_textbuf_printf(out, "%lld", (long long)v);
    else
        append_repr(out, v);
}

void sp_compare_csv(sp_textbuf *out, const sp_comparison *c, const sp_compare_doc *doc) {
    sp_textbuf_append(out, "name,a,b,delta,pct,runs_a,runs_b");
    if (doc->significance)
        sp_textbuf_append(out, ",verdict,ratio,ratio_low,ratio_high,p_value,method,runs_needed,spread_a,spread_b");
    if (doc->check) sp_textbuf_append(out, ",violation");
    sp_textbuf_append(out, SP_CSV_EOL);
    int calls = c->metric == SP_METRIC_CALLS;
    for (size_t i = 0; i < c->count; i++) {
        const sp_compare_row *r = &c->rows[i];
        sp_csv_field(out, r->name, 0);
        csv_number(out, r->in_a, r->a, calls);
        csv_number(out, r->in_b, r->b, calls);
        csv_number(out, 1, r->delta, calls);
        csv_number(out, r->has_pct, r->pct, 0);
        sp_textbuf_printf(out, ",%u,%u", r->runs_a, r->runs_b);
        if (doc->significance) {
            sp_textbuf_putc(out, ',');
            sp_csv_field(out, r->sig.text, 0);
            csv_number(out, 1, r->sig.ratio, 0);
            csv_number(out, 1, r->sig.ratio_low, 0);
            csv_number(out, 1, r->sig.ratio_high, 0);
            csv_number(out, 1, r->sig.p_value, 0);
            sp_textbuf_putc(out, ',');
            const char *m = method_name(r->sig.method);
            if (m) sp_textbuf_append(out, m);
            sp_textbuf_putc(out, ',');
            if (r->sig.runs_needed == UINT32_MAX)
                sp_textbuf_append(out, ">1000");
            else if (r->sig.runs_needed > 0)
                sp_textbuf_printf(out, "%u", r->sig.runs_needed);
            csv_number(out, 1, r->sig.spread_a, 0);
            csv_number(out, 1, r->sig.spread_b, 0);
        }
        if (doc->check)
            sp_textbuf_append(out, sp_compare_row_violates(r, doc->check) ? ",1" : ",0");
        sp_textbuf_append(out, SP_CSV_EOL);
    }
}
