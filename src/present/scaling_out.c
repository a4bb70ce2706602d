/* scaling as a box table, JSON and CSV (docs/compare.md § scaling). */
#include <math.h>
#include <stdlib.h>

#include "common/py_float.h"
#include "common/utf8.h"
#include "present/compare_out.h"
#include "present/csv_escape.h"
#include "present/json_build.h"
#include "present/json_print.h"
#include "present/box_table.h"

#define NCOLS 6

static void number(sp_textbuf *b, double v, const char *fmt) {
    if (isnan(v))
        sp_textbuf_append(b, "-");
    else if (v == floor(v) && fabs(v) < 9e15)
        sp_textbuf_printf(b, "%lld", (long long)v);
    else
        sp_textbuf_printf(b, fmt, v);
}

static void list_xs(sp_textbuf *out, const sp_scaling *s) {
    for (size_t k = 0; k < s->num_x; k++) {
        if (k) sp_textbuf_append(out, ", ");
        number(out, s->xs[k], "%.6g");
    }
}

static int point_cells(const sp_scaling *s, const sp_scaling_region *r, size_t k, char **cells) {
    const sp_scaling_point *p = &r->points[k];
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, r->name);
    cells[0] = sp_textbuf_take(&b);
    number(&b, s->xs[k], "%.6g");
    cells[1] = sp_textbuf_take(&b);
    sp_textbuf_printf(&b, "%u", p->runs);
    cells[2] = sp_textbuf_take(&b);
    if (p->has_time)
        sp_textbuf_printf(&b, "%.6g", p->time);
    else
        sp_textbuf_append(&b, "-");
    cells[3] = sp_textbuf_take(&b);
    number(&b, p->speedup, "%.4g");
    cells[4] = sp_textbuf_take(&b);
    number(&b, p->efficiency, "%.4g");
    cells[5] = sp_textbuf_take(&b);
    for (int j = 0; j < NCOLS; j++)
        if (!cells[j]) return 0;
    return 1;
}

/* The pieces joined by spaces on one line, or where that would pass max_width
 * (0: no limit), continued on lines indented by 2. */
static void put_pieces(sp_textbuf *out, const char *const *pieces, size_t n, size_t max_width) {
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = sp_utf8_length(pieces[i]);
        if (i && max_width && col + 1 + len > max_width) {
            sp_textbuf_append(out, "\n  ");
            col = 2;
        } else if (i) {
            sp_textbuf_putc(out, ' ');
            col++;
        }
        sp_textbuf_append(out, pieces[i]);
        col += len;
    }
    sp_textbuf_putc(out, '\n');
}

void sp_scaling_text(sp_textbuf *out, const sp_scaling *s, size_t max_width) {
    sp_textbuf over = SP_TEXTBUF_INIT, base = SP_TEXTBUF_INIT;
    sp_textbuf_printf(&over, "%s scaling over %s (", s->weak ? "Weak" : "Strong", s->x_name);
    list_xs(&over, s);
    sp_textbuf_append(&over, "),");
    sp_textbuf_printf(&base, "baseline %s = ", s->x_name);
    number(&base, s->xs[0], "%.6g");
    if (sp_textbuf_failed(&over) || sp_textbuf_failed(&base)) out->failed = 1;
    const char *title[] = {sp_textbuf_str(&over), sp_textbuf_str(&base)};
    if (title[0] && title[1]) put_pieces(out, title, 2, max_width);
    sp_textbuf_free(&over);
    sp_textbuf_free(&base);
    const char *time[] = {s->metric == SP_METRIC_TOTAL ? "time: total per rank"
                                                       : "time: mean duration per call",
                          "over the selected ranks [s];"};
    put_pieces(out, time, 2, max_width);
    sp_textbuf_append(out, s->weak ? "efficiency = t(x0) / t(x)\n"
                                   : "efficiency = speedup / (x / x0)\n");
    sp_textbuf_printf(out, "\nRegions (%zu)\n", s->num_regions);
    if (!s->num_regions) {
        sp_textbuf_append(out, "  (no regions to compare)\n");
        return;
    }
    size_t nrows = s->num_regions * s->num_x;
    char **cells = calloc(nrows * NCOLS + 1, sizeof *cells);
    int ok = cells != NULL;
    for (size_t i = 0; ok && i < s->num_regions; i++)
        for (size_t k = 0; ok && k < s->num_x; k++)
            ok = point_cells(s, &s->regions[i], k, cells + (i * s->num_x + k) * NCOLS);
    const char *headers[NCOLS] = {"region", s->x_name, "runs", "time [s]", "speedup", "efficiency"};
    if (ok)
        sp_box_table_fit(out, headers, NCOLS, (const char *const *)cells, nrows, max_width);
    else
        out->failed = 1;
    for (size_t i = 0; cells && i < nrows * NCOLS; i++)
        free(cells[i]);
    free(cells);
    sp_textbuf_putc(out, '\n');
    if (!s->computation_scalability) return;
    sp_textbuf_printf(out,
                      "\nComputation scalability (POP, docs/parallel.md §6.4): useful time "
                      "(outside MPI calls) summed over ranks, %s\n",
                      s->weak ? "U(x0) * (x / x0) / U(x)" : "U(x0) / U(x)");
    for (size_t k = 0; k < s->num_x; k++) {
        sp_textbuf_printf(out, "  %s ", s->x_name);
        number(out, s->xs[k], "%.6g");
        sp_textbuf_printf(out, ": useful %.6g s, computation scalability %.4g\n", s->useful[k],
                          s->computation_scalability[k]);
    }
}

static int add_x(struct json_object *o, const char *key, double x) {
    if (x == floor(x) && fabs(x) < 9e15) return sp_json_add_int(o, key, (int64_t)x);
    return sp_json_add_double(o, key, x);
}

static int add_num(struct json_object *o, const char *key, double v) {
    return isfinite(v) ? sp_json_add_double(o, key, v) : sp_json_add_null(o, key);
}

static struct json_object *region_json(const sp_scaling *s, const sp_scaling_region *r) {
    struct json_object *o = json_object_new_object(), *points = json_object_new_array();
    int ok = o && points && sp_json_add_string(o, "name", r->name);
    for (size_t k = 0; ok && k < s->num_x; k++) {
        const sp_scaling_point *p = &r->points[k];
        struct json_object *po = json_object_new_object();
        ok = add_x(po, "x", s->xs[k]) && sp_json_add_int(po, "runs", p->runs) &&
             add_num(po, "time", p->has_time ? p->time : NAN) &&
             add_num(po, "speedup", p->speedup) && add_num(po, "efficiency", p->efficiency);
        if (!ok) json_object_put(po);
        ok = ok && sp_json_append(points, po);
    }
    if (ok) {
        ok = sp_json_add(o, "points", points);
        points = NULL;
    }
    if (!ok) {
        json_object_put(points);
        json_object_put(o);
        return NULL;
    }
    return o;
}

char *sp_scaling_json(const sp_scaling *s, const char *const *files, size_t num_files) {
    struct json_object *o = json_object_new_object();
    struct json_object *xs = json_object_new_array(), *regions = json_object_new_array();
    int ok = o && xs && regions;
    for (size_t k = 0; ok && k < s->num_x; k++) {
        struct json_object *xo = json_object_new_object();
        ok = add_x(xo, "x", s->xs[k]) && sp_json_add_int(xo, "runs", s->runs_at_x[k]);
        if (!ok) json_object_put(xo);
        ok = ok && sp_json_append(xs, xo);
    }
    for (size_t i = 0; ok && i < s->num_regions; i++)
        ok = sp_json_append(regions, region_json(s, &s->regions[i]));
    ok = ok && sp_json_add_string(o, "x", s->x_name) &&
         sp_json_add(o, "weak", json_object_new_boolean(s->weak)) &&
         sp_json_add_string(o, "metric", sp_metric_name(s->metric)) &&
         add_x(o, "baseline", s->xs[0]) &&
         sp_json_add(o, "files", sp_json_string_array(files, num_files));
    if (ok && s->computation_scalability) { /* runs with their MPI calls recorded */
        struct json_object *cs = json_object_new_array();
        ok = cs != NULL;
        for (size_t k = 0; ok && k < s->num_x; k++) {
            struct json_object *po = json_object_new_object();
            ok = add_x(po, "x", s->xs[k]) && add_num(po, "useful", s->useful[k]) &&
                 add_num(po, "computation_scalability", s->computation_scalability[k]);
            if (!ok) json_object_put(po);
            ok = ok && sp_json_append(cs, po);
        }
        if (ok)
            ok = sp_json_add(o, "computation_scalability", cs);
        else
            json_object_put(cs);
    }
    return sp_json_finish(o, ok, "values", xs, "regions", regions);
}

static void csv_num(sp_textbuf *out, double v) {
    sp_textbuf_putc(out, ',');
    char text[SP_PY_FLOAT_REPR_SIZE];
    if (!isfinite(v)) return;
    if (v == floor(v) && fabs(v) < 9e15)
        sp_textbuf_printf(out, "%lld", (long long)v);
    else if (sp_py_float_repr(v, text))
        sp_textbuf_append(out, text);
}

void sp_scaling_csv(sp_textbuf *out, const sp_scaling *s) {
    sp_textbuf_append(out, "region,");
    sp_csv_field(out, s->x_name, 0);
    sp_textbuf_append(out, ",runs,time,speedup,efficiency" SP_CSV_EOL);
    for (size_t i = 0; i < s->num_regions; i++)
        for (size_t k = 0; k < s->num_x; k++) {
            const sp_scaling_point *p = &s->regions[i].points[k];
            sp_csv_field(out, s->regions[i].name, 0);
            csv_num(out, s->xs[k]);
            sp_textbuf_printf(out, ",%u", p->runs);
            csv_num(out, p->has_time ? p->time : NAN);
            csv_num(out, p->speedup);
            csv_num(out, p->efficiency);
            sp_textbuf_append(out, SP_CSV_EOL);
        }
}
