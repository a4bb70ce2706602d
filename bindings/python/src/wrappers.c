/*
 * Thin wrappers over the rest of the C side: JSON statistics and metadata,
 * diff/check, exports, plots, the report, balance. Each converts arguments,
 * calls one library function and converts its answer.
 */
#include "sp_py.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <scope_profiler/balance.h>
#include <scope_profiler/compare.h>
#include <scope_profiler/export.h>
#include <scope_profiler/plot.h>
#include <scope_profiler/report.h>

/* Optional filter keywords shared by most wrappers. */
#define FILTER_KEYWORDS "include", "exclude", "ranks"

static PyObject *path_bytes(PyObject *path) {
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes)) return NULL;
    return bytes;
}

/* labels= as a NULL-padded array of UTF-8 strings kept alive by keep. */
static int labels_arg(PyObject *labels, size_t runs, PyObject *keep, const char ***out) {
    *out = NULL;
    if (!labels || labels == Py_None) return 0;
    if (!PyList_Check(labels) && !PyTuple_Check(labels)) {
        PyErr_Format(PyExc_TypeError, "labels must be a list of str, not %.100s",
                     Py_TYPE(labels)->tp_name);
        return -1;
    }
    if ((size_t)PySequence_Size(labels) != runs) {
        PyErr_Format(PyExc_ValueError, "labels: %zd labels for %zu runs", PySequence_Size(labels),
                     runs);
        return -1;
    }
    const char **items = calloc(runs + 1, sizeof *items);
    if (!items) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < runs; i++) {
        PyObject *item = PySequence_GetItem(labels, (Py_ssize_t)i);
        if (!item) goto fail;
        if (item != Py_None) {
            if (!PyUnicode_Check(item)) {
                PyErr_Format(PyExc_TypeError, "labels must hold str, not %.100s",
                             Py_TYPE(item)->tp_name);
                Py_DECREF(item);
                goto fail;
            }
            if (PyList_Append(keep, item) < 0) {
                Py_DECREF(item);
                goto fail;
            }
            items[i] = PyUnicode_AsUTF8(item);
        }
        Py_DECREF(item);
        if (PyErr_Occurred()) goto fail;
    }
    *out = items;
    return 0;
fail:
    free(items);
    return -1;
}

/* collect_region_statistics / write_region_statistics_json share this. */
static PyObject *region_statistics(PyObject *args, PyObject *kwargs, int write) {
    static char *collect_kw[] = {"results", FILTER_KEYWORDS, "labels", NULL};
    static char *write_kw[] = {"results", "out_path", FILTER_KEYWORDS, "labels", NULL};
    PyObject *runs_arg, *out_path = NULL, *inc = NULL, *exc = NULL, *ranks = NULL, *labels = NULL;
    int ok = write
                 ? PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OOOO:write_region_statistics_json",
                                               write_kw, &runs_arg, &out_path, &inc, &exc, &ranks,
                                               &labels)
                 : PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOOO:collect_region_statistics",
                                               collect_kw, &runs_arg, &inc, &exc, &ranks, &labels);
    if (!ok) return NULL;
    sppy_runs runs;
    if (sppy_runs_parse(runs_arg, "results", &runs) < 0) return NULL;
    PyObject *out = NULL, *path = NULL, *keep = PyList_New(0);
    sppy_filter f;
    if (!keep || sppy_filter_parse(inc, exc, ranks, &f) < 0) {
        Py_XDECREF(keep);
        sppy_runs_clear(&runs);
        return NULL;
    }
    sp_stats_options opts = {0};
    opts.filter = f.filter;
    const char **label_items = NULL;
    if (labels_arg(labels, runs.count, keep, &label_items) < 0) goto done;
    opts.labels = label_items;
    if (write && !(path = path_bytes(out_path))) goto done;
    sp_error err = {0};
    char *text = sp_collect_region_statistics(runs.runs, runs.count, &opts, &err);
    if (!text) {
        sppy_raise(&err);
        goto done;
    }
    if (write && sp_write_region_statistics_json(runs.runs, runs.count, &opts,
                                                 PyBytes_AS_STRING(path), &err) != SP_OK) {
        free(text);
        sppy_raise(&err);
        goto done;
    }
    out = sppy_json_loads(text);
    free(text);
done:
    free(label_items);
    Py_XDECREF(path);
    Py_DECREF(keep);
    sppy_filter_clear(&f);
    sppy_runs_clear(&runs);
    return out;
}

/* Module functions that are one shared implementation with a flag. */
#define SPPY_FLAG_VARIANT(name, impl, flag)                                                      \
    static PyObject *name(PyObject *m, PyObject *args, PyObject *kwargs) {                       \
        (void)m;                                                                                 \
        return impl(args, kwargs, flag);                                                         \
    }

SPPY_FLAG_VARIANT(py_collect_region_statistics, region_statistics, 0)
SPPY_FLAG_VARIANT(py_write_region_statistics_json, region_statistics, 1)

static PyObject *py_write_metadata_json(PyObject *m, PyObject *args, PyObject *kwargs) {
    (void)m;
    static char *keywords[] = {"files", "out_path", NULL};
    PyObject *files, *out_path = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:write_metadata_json", keywords, &files,
                                     &out_path))
        return NULL;
    sppy_runs runs;
    if (sppy_runs_parse(files, "files", &runs) < 0) return NULL;
    PyObject *out = NULL, *path = NULL;
    sp_error err = {0};
    char *text = sp_collect_metadata_json(runs.runs, runs.count, &err);
    if (!text) {
        sppy_raise(&err);
    } else if (out_path != Py_None && !(path = path_bytes(out_path))) {
        /* the exception is set */
    } else if (path && sp_write_metadata_json(runs.runs, runs.count, PyBytes_AS_STRING(path),
                                              &err) != SP_OK) {
        sppy_raise(&err);
    } else {
        out = sppy_json_loads(text);
    }
    free(text);
    Py_XDECREF(path);
    sppy_runs_clear(&runs);
    return out;
}

/* --- diff and check ------------------------------------------------------- */

static PyObject *compare_row(const sp_compare_row *r) {
    const sp_significance *s = &r->sig;
    return Py_BuildValue(
        "{ss sO sO sN sN sN sN sI sI ss sN sN sN sN}", "name", r->name, "in_a",
        r->in_a ? Py_True : Py_False, "in_b", r->in_b ? Py_True : Py_False, "a",
        sppy_float_or_none(r->a), "b", sppy_float_or_none(r->b), "delta",
        sppy_float_or_none(r->delta), "pct",
        r->has_pct ? PyFloat_FromDouble(r->pct) : Py_NewRef(Py_None), "runs_a", (unsigned)r->runs_a,
        "runs_b", (unsigned)r->runs_b, "verdict", s->text, "ratio",
        sppy_float_or_none(s->ratio), "ratio_low", sppy_float_or_none(s->ratio_low), "ratio_high",
        sppy_float_or_none(s->ratio_high), "p_value", sppy_float_or_none(s->p_value));
}

/* diff(a, b, ...) and check(a, b, max_regression=..., ...). */
static PyObject *compare(PyObject *args, PyObject *kwargs, int check) {
    static char *keywords[] = {"a",
                               "b",
                               "metric",
                               "by",
                               FILTER_KEYWORDS,
                               "threshold",
                               "significance",
                               "level",
                               "max_regression",
                               "fail_on_new",
                               "significant",
                               NULL};
    PyObject *a_arg, *b_arg, *inc = NULL, *exc = NULL, *ranks = NULL, *threshold = Py_None;
    const char *metric = "total", *by = "region";
    int significance = 1, fail_on_new = 0, significant = 0;
    double level = SP_COMPARE_DEFAULT_LEVEL, max_regression = 0.0;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, check ? "OO|$ssOOOOpddpp:check" : "OO|$ssOOOOpddpp:diff", keywords,
            &a_arg, &b_arg, &metric, &by, &inc, &exc, &ranks, &threshold, &significance, &level,
            &max_regression, &fail_on_new, &significant))
        return NULL;
    sp_compare_options opts = {0};
    if (!sp_metric_parse(metric, &opts.metric))
        return PyErr_Format(PyExc_ValueError,
                            "metric '%s' is not one of total, avg, min, max, p50, p95, p99, "
                            "imbalance, calls, exclusive",
                            metric);
    if (!strcmp(by, "region"))
        opts.by = SP_COMPARE_BY_REGION;
    else if (!strcmp(by, "path"))
        opts.by = SP_COMPARE_BY_PATH;
    else
        return PyErr_Format(PyExc_ValueError, "by '%s' is not 'region' or 'path'", by);
    if (threshold != Py_None) {
        opts.has_threshold = 1;
        opts.threshold = PyFloat_AsDouble(threshold);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return PyErr_Format(PyExc_TypeError, "threshold must be a number or None, not %.100s",
                                Py_TYPE(threshold)->tp_name);
        }
    }
    if (max_regression < 0)
        return PyErr_Format(PyExc_ValueError,
                            "check(): max_regression must be 0 or more (percent)");
    opts.significance = significance || significant;
    opts.level = level;
    sppy_runs a, b;
    if (sppy_runs_parse(a_arg, "a", &a) < 0) return NULL;
    if (sppy_runs_parse(b_arg, "b", &b) < 0) {
        sppy_runs_clear(&a);
        return NULL;
    }
    sppy_filter f;
    PyObject *out = NULL, *rows = NULL, *violations = NULL;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) goto done;
    opts.filter = f.filter;
    sp_error err = {0};
    sp_comparison *c = sp_compare(a.runs, a.count, b.runs, b.count, &opts, &err);
    sppy_filter_clear(&f);
    if (!c) {
        sppy_raise(&err);
        goto done;
    }
    sp_check_options budget = {max_regression, fail_on_new, significant};
    rows = PyList_New(0);
    violations = PyList_New(0);
    for (size_t i = 0; rows && violations && i < c->count; i++) {
        PyObject *row = compare_row(&c->rows[i]);
        if (!row || PyList_Append(rows, row) < 0) Py_CLEAR(rows);
        if (rows && check && sp_compare_row_violates(&c->rows[i], &budget)) {
            PyObject *name = PyUnicode_FromString(c->rows[i].name);
            if (!name || PyList_Append(violations, name) < 0) Py_CLEAR(violations);
            Py_XDECREF(name);
        }
        Py_XDECREF(row);
    }
    sp_comparison_free(c);
    if (rows && violations)
        out = check ? Py_BuildValue("{sOsOsO}", "passed",
                                    PyList_GET_SIZE(violations) ? Py_False : Py_True, "violations",
                                    violations, "rows", rows)
                    : Py_NewRef(rows);
done:
    Py_XDECREF(rows);
    Py_XDECREF(violations);
    sppy_runs_clear(&a);
    sppy_runs_clear(&b);
    return out;
}

SPPY_FLAG_VARIANT(py_diff, compare, 0)
SPPY_FLAG_VARIANT(py_check, compare, 1)

/* --- export, plot, report, balance ----------------------------------------- */

/* The results argument: one ProfilingResults (or a path). */
static int single_run(PyObject *arg, sppy_runs *runs) {
    if (sppy_runs_parse(arg, "results", runs) < 0) return -1;
    if (runs->count != 1) {
        sppy_runs_clear(runs);
        PyErr_SetString(PyExc_TypeError, "results must be one ProfilingResults or path");
        return -1;
    }
    return 0;
}

static PyObject *bytes_or_text(const char *buf, size_t len, int text) {
    return text ? PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "replace")
                : PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
}

static PyObject *py_export(PyObject *m, PyObject *args, PyObject *kwargs) {
    (void)m;
    static char *keywords[] = {"results",       "format",     "path",
                               FILTER_KEYWORDS, "per_rank",   "gzip",
                               "min_duration",  "max_events", NULL};
    PyObject *arg, *out_path = Py_None, *inc = NULL, *exc = NULL, *ranks = NULL;
    const char *format;
    int per_rank = 0, gzip = 0;
    double min_duration = 0;
    unsigned long long max_events = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Os|O$OOOppdK:export", keywords, &arg, &format,
                                     &out_path, &inc, &exc, &ranks, &per_rank, &gzip, &min_duration,
                                     &max_events))
        return NULL;
    sp_export_format fmt;
    if (!sp_export_format_from_name(format, &fmt))
        return PyErr_Format(PyExc_ValueError,
                            "export(): format '%s' is not chrome-trace, perfetto, speedscope or "
                            "folded",
                            format);
    sppy_runs runs;
    if (single_run(arg, &runs) < 0) return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) {
        sppy_runs_clear(&runs);
        return NULL;
    }
    sp_export_options opts = {0};
    opts.select.filter = f.filter;
    opts.select.min_duration = min_duration;
    opts.select.max_events = max_events;
    opts.per_rank = per_rank;
    opts.gzip = gzip;
    sp_error err = {0};
    PyObject *out = NULL;
    if (out_path != Py_None) {
        PyObject *path = path_bytes(out_path);
        if (path &&
            sp_export_file(runs.runs[0], fmt, &opts, PyBytes_AS_STRING(path), &err) == SP_OK)
            out = Py_NewRef(Py_None);
        else if (path)
            sppy_raise(&err);
        Py_XDECREF(path);
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        sp_status st =
            mem ? sp_export_write(runs.runs[0], fmt, &opts, mem, &err) : SP_ERR_OUT_OF_MEMORY;
        if (mem && fclose(mem) != 0 && st == SP_OK) st = SP_ERR_OUT_OF_MEMORY;
        if (st != SP_OK) {
            if (!err.status) err.status = st;
            sppy_raise(&err);
        } else {
            out = bytes_or_text(buf ? buf : "", buf ? len : 0, !gzip && fmt != SP_EXPORT_PERFETTO);
        }
        free(buf);
    }
    sppy_filter_clear(&f);
    sppy_runs_clear(&runs);
    return out;
}

static PyObject *py_plot(PyObject *m, PyObject *args, PyObject *kwargs) {
    (void)m;
    static char *keywords[] = {"results", "kind", "path", FILTER_KEYWORDS, "width", "metric",
                               "region",  "rank", "x",    "bins",          NULL};
    PyObject *arg, *out_path = Py_None, *inc = NULL, *exc = NULL, *ranks = NULL, *rank = Py_None;
    const char *kind, *metric = NULL, *region = NULL, *x = NULL;
    int width = 0, bins = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Os|O$OOOizzOzi:plot", keywords, &arg, &kind,
                                     &out_path, &inc, &exc, &ranks, &width, &metric, &region, &rank,
                                     &x, &bins))
        return NULL;
    sp_plot_kind k;
    if (!sp_plot_kind_from_name(kind, &k))
        return PyErr_Format(PyExc_ValueError,
                            "plot(): kind '%s' is not gantt, flame-chart, flame-graph, durations, "
                            "imbalance, histogram or speedup",
                            kind);
    sp_plot_options opts = {0};
    if (rank != Py_None) {
        long r = PyLong_Check(rank) ? PyLong_AsLong(rank) : -1;
        if (!PyLong_Check(rank))
            return PyErr_Format(PyExc_TypeError,
                                "plot() argument 'rank' must be int or None, not %.100s",
                                Py_TYPE(rank)->tp_name);
        if (r < 0)
            return PyErr_Occurred()
                       ? NULL
                       : PyErr_Format(PyExc_ValueError, "plot(): rank must be 0 or more");
        opts.has_rank = 1;
        opts.rank = (uint32_t)r;
    }
    sppy_runs runs;
    if (sppy_runs_parse(arg, "results", &runs) < 0) return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) {
        sppy_runs_clear(&runs);
        return NULL;
    }
    opts.filter = f.filter;
    opts.width = width;
    opts.metric = metric;
    opts.region = region;
    opts.x = x;
    opts.bins = bins;
    sp_error err = {0};
    size_t len = 0;
    char *svg = sp_plot_svg(runs.runs, runs.count, k, &opts, &len, &err);
    PyObject *out = NULL;
    if (!svg) {
        sppy_raise(&err);
    } else if (out_path != Py_None) {
        PyObject *path = path_bytes(out_path);
        if (path && sp_write_plot_svg(runs.runs, runs.count, k, &opts, PyBytes_AS_STRING(path),
                                      &err) == SP_OK)
            out = bytes_or_text(svg, len, 1);
        else if (path)
            sppy_raise(&err);
        Py_XDECREF(path);
    } else {
        out = bytes_or_text(svg, len, 1);
    }
    free(svg);
    sppy_filter_clear(&f);
    sppy_runs_clear(&runs);
    return out;
}

static PyObject *py_report(PyObject *m, PyObject *args, PyObject *kwargs) {
    (void)m;
    static char *keywords[] = {"results", "path", FILTER_KEYWORDS, "width", "title", NULL};
    PyObject *arg, *out_path = Py_None, *inc = NULL, *exc = NULL, *ranks = NULL;
    const char *title = NULL;
    int width = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$OOOiz:report", keywords, &arg, &out_path,
                                     &inc, &exc, &ranks, &width, &title))
        return NULL;
    sppy_runs runs;
    if (sppy_runs_parse(arg, "results", &runs) < 0) return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) {
        sppy_runs_clear(&runs);
        return NULL;
    }
    sp_report_options opts = {0};
    opts.filter = f.filter;
    opts.width = width;
    opts.title = title;
    sp_error err = {0};
    size_t len = 0;
    char *html = sp_report_html(runs.runs, runs.count, &opts, &len, &err);
    PyObject *out = NULL;
    if (!html) {
        sppy_raise(&err);
    } else if (out_path != Py_None) {
        PyObject *path = path_bytes(out_path);
        if (path && sp_write_report_html(runs.runs, runs.count, &opts, PyBytes_AS_STRING(path),
                                         &err) == SP_OK)
            out = bytes_or_text(html, len, 1);
        else if (path)
            sppy_raise(&err);
        Py_XDECREF(path);
    } else {
        out = bytes_or_text(html, len, 1);
    }
    free(html);
    sppy_filter_clear(&f);
    sppy_runs_clear(&runs);
    return out;
}

typedef struct balance_ctx {
    const sp_results *results;
    const sp_filter *filter;
} balance_ctx;

static sp_status balance_into(FILE *out, void *ctx, sp_error *err) {
    balance_ctx *c = ctx;
    return sp_write_balance_json(c->results, out, c->filter, err);
}

static PyObject *py_balance(PyObject *m, PyObject *args, PyObject *kwargs) {
    (void)m;
    static char *keywords[] = {"results", FILTER_KEYWORDS, NULL};
    PyObject *arg, *inc = NULL, *exc = NULL, *ranks = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOO:balance", keywords, &arg, &inc, &exc,
                                     &ranks))
        return NULL;
    sppy_runs runs;
    if (single_run(arg, &runs) < 0) return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) {
        sppy_runs_clear(&runs);
        return NULL;
    }
    balance_ctx ctx = {runs.runs[0], &f.filter};
    PyObject *text = sppy_capture(balance_into, &ctx);
    const char *utf8 = text ? PyUnicode_AsUTF8(text) : NULL;
    PyObject *out = utf8 ? sppy_json_loads(utf8) : NULL;
    Py_XDECREF(text);
    sppy_filter_clear(&f);
    sppy_runs_clear(&runs);
    return out;
}

PyMethodDef sppy_wrapper_methods[] = {
    {"collect_region_statistics", (PyCFunction)(void (*)(void))py_collect_region_statistics,
     METH_VARARGS | METH_KEYWORDS,
     "collect_region_statistics(results, include=None, exclude=None, ranks=None, labels=None)"},
    {"write_region_statistics_json", (PyCFunction)(void (*)(void))py_write_region_statistics_json,
     METH_VARARGS | METH_KEYWORDS,
     "write_region_statistics_json(results, out_path, include=None, exclude=None, ...)"},
    {"write_metadata_json", (PyCFunction)(void (*)(void))py_write_metadata_json,
     METH_VARARGS | METH_KEYWORDS, "write_metadata_json(files, out_path=None): the payload dict."},
    {"diff", (PyCFunction)(void (*)(void))py_diff, METH_VARARGS | METH_KEYWORDS,
     "diff(a, b, *, metric='total', by='region', ...): one dict per row."},
    {"check", (PyCFunction)(void (*)(void))py_check, METH_VARARGS | METH_KEYWORDS,
     "check(a, b, *, max_regression=0.0, ...): {'passed', 'violations', 'rows'}."},
    {"export", (PyCFunction)(void (*)(void))py_export, METH_VARARGS | METH_KEYWORDS,
     "export(results, format, path=None, ...): the trace as str/bytes, or written to path."},
    {"plot", (PyCFunction)(void (*)(void))py_plot, METH_VARARGS | METH_KEYWORDS,
     "plot(results, kind, path=None, ...): the SVG text (also written to path)."},
    {"report", (PyCFunction)(void (*)(void))py_report, METH_VARARGS | METH_KEYWORDS,
     "report(results, path=None, ...): the HTML report text (also written to path)."},
    {"balance", (PyCFunction)(void (*)(void))py_balance, METH_VARARGS | METH_KEYWORDS,
     "balance(results, *, include=None, exclude=None, ranks=None): the balance report."},
    {NULL, NULL, 0, NULL}};
