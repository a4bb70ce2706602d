/* ProfilingResults: an ordered mapping of region name -> MPIRegion over one sp_results. */
#include "sp_py.h"

#include <stdlib.h>
#include <string.h>

PyObject *sppy_results_wrap(sp_results *r, PyObject *path) {
    sppy_results *self = PyObject_New(sppy_results, &sppy_results_type);
    if (!self) {
        sp_results_free(r);
        return NULL;
    }
    self->results = r;
    self->path = Py_NewRef(path);
    return (PyObject *)self;
}

PyObject *sppy_read_path(PyObject *path) {
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes)) return NULL;
    PyObject *text = PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(bytes));
    if (!text) {
        Py_DECREF(bytes);
        return NULL;
    }
    sp_error err = {0};
    sp_results *r;
    const char *c_path = PyBytes_AS_STRING(bytes);
    Py_BEGIN_ALLOW_THREADS r = sp_read(c_path, &err);
    Py_END_ALLOW_THREADS PyObject *out = NULL;
    if (r) {
        out = sppy_results_wrap(r, text);
    } else if (err.status == SP_ERR_NO_SUCH_FILE) {
        /* the Python package's wording */
        PyErr_Format(PyExc_FileNotFoundError, "HDF5 file not found: %U", text);
    } else {
        sppy_raise(&err);
    }
    Py_DECREF(text);
    Py_DECREF(bytes);
    return out;
}

static PyObject *py_read_h5(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *keywords[] = {"file_path", "verbose", NULL};
    PyObject *path;
    int verbose = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p:read_h5", keywords, &path, &verbose))
        return NULL;
    if (!PyUnicode_Check(path) && !PyBytes_Check(path) &&
        !PyObject_HasAttrString(path, "__fspath__"))
        return PyErr_Format(PyExc_TypeError,
                            "read_h5() argument 'file_path' must be str or os.PathLike, not %.100s",
                            Py_TYPE(path)->tp_name);
    return sppy_read_path(path);
}

static void results_dealloc(PyObject *o) {
    sppy_results *self = (sppy_results *)o;
    sp_results_free(self->results);
    Py_XDECREF(self->path);
    Py_TYPE(o)->tp_free(o);
}

static PyObject *results_repr(PyObject *o) {
    sppy_results *self = (sppy_results *)o;
    char buf[2048];
    int n = sp_results_describe(self->results, buf, sizeof buf);
    if (n < 0) return PyUnicode_FromString("<ProfilingResults>");
    if ((size_t)n < sizeof buf) return PyUnicode_DecodeUTF8(buf, n, "replace");
    char *big = malloc((size_t)n + 1);
    if (!big) return PyErr_NoMemory();
    sp_results_describe(self->results, big, (size_t)n + 1);
    PyObject *out = PyUnicode_DecodeUTF8(big, n, "replace");
    free(big);
    return out;
}

static Py_ssize_t results_len(PyObject *o) {
    return (Py_ssize_t)sp_results_num_regions(((sppy_results *)o)->results);
}

static const char *name_arg(PyObject *key) {
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "region names are str, not %.100s", Py_TYPE(key)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(key);
}

static PyObject *results_getitem(PyObject *o, PyObject *key) {
    sppy_results *self = (sppy_results *)o;
    const char *name = name_arg(key);
    if (!name) return NULL;
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_get(self->results, name, &err);
    if (!mr) {
        /* the Python package's text: the C library's spelling hint is left out */
        char *hint = strstr(err.message, " Did you mean '");
        if (hint) *hint = '\0';
        return sppy_raise(&err);
    }
    return sppy_mpi_region_new(self, mr);
}

static int results_contains(PyObject *o, PyObject *key) {
    if (!PyUnicode_Check(key)) return 0;
    const char *name = PyUnicode_AsUTF8(key);
    if (!name) return -1;
    return sp_results_find(((sppy_results *)o)->results, name) >= 0;
}

/* Regions in file order, as a list (iteration, values()). */
static PyObject *region_list(sppy_results *self) {
    size_t n = sp_results_num_regions(self->results);
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *r = sppy_mpi_region_new(self, sp_results_region_at(self->results, i));
        if (!r) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, r);
    }
    return list;
}

static PyObject *results_iter(PyObject *o) {
    PyObject *list = region_list((sppy_results *)o);
    if (!list) return NULL;
    PyObject *it = PyObject_GetIter(list);
    Py_DECREF(list);
    return it;
}

static PyObject *region_names(PyObject *o, void *closure) {
    (void)closure;
    sppy_results *self = (sppy_results *)o;
    size_t n = sp_results_num_regions(self->results);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(sp_results_region_name(self->results, i));
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyObject *values(PyObject *o, PyObject *unused) {
    (void)unused;
    return region_list((sppy_results *)o);
}

static PyObject *keys(PyObject *o, PyObject *unused) {
    (void)unused;
    return region_names(o, NULL);
}

static PyObject *items(PyObject *o, PyObject *unused) {
    (void)unused;
    PyObject *names = region_names(o, NULL), *regions = region_list((sppy_results *)o);
    PyObject *out = names && regions ? PyList_New(PyList_GET_SIZE(names)) : NULL;
    for (Py_ssize_t i = 0; out && i < PyList_GET_SIZE(names); i++) {
        PyObject *pair = PyTuple_Pack(2, PyList_GET_ITEM(names, i), PyList_GET_ITEM(regions, i));
        if (!pair) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    Py_XDECREF(names);
    Py_XDECREF(regions);
    return out;
}

static PyObject *num_ranks(PyObject *o, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(sp_results_num_ranks(((sppy_results *)o)->results));
}

static PyObject *time_origin(PyObject *o, void *closure) {
    (void)closure;
    return PyFloat_FromDouble(sp_results_time_origin(((sppy_results *)o)->results));
}

static PyObject *file_path(PyObject *o, void *closure) {
    (void)closure;
    return Py_NewRef(((sppy_results *)o)->path);
}

static PyObject *label(PyObject *o, void *closure) {
    (void)closure;
    return PyUnicode_FromString(sp_results_display_label(((sppy_results *)o)->results));
}

static PyObject *metadata_value(const sp_metadata_item *it) {
    switch (it->type) {
    case SP_VALUE_INT:
        return PyLong_FromLongLong(it->int_value);
    case SP_VALUE_FLOAT:
        return PyFloat_FromDouble(it->float_value);
    case SP_VALUE_STRING:
        return PyUnicode_DecodeUTF8(it->string_value, (Py_ssize_t)strlen(it->string_value),
                                    "replace");
    case SP_VALUE_STRING_LIST: {
        PyObject *list = PyList_New((Py_ssize_t)it->list_len);
        for (size_t i = 0; list && i < it->list_len; i++) {
            PyObject *s =
                PyUnicode_DecodeUTF8(it->list[i], (Py_ssize_t)strlen(it->list[i]), "replace");
            if (!s) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, s);
        }
        return list;
    }
    }
    Py_RETURN_NONE;
}

static PyObject *metadata(PyObject *o, void *closure) {
    (void)closure;
    const sp_results *r = ((sppy_results *)o)->results;
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < sp_results_num_metadata(r); i++) {
        sp_metadata_item it;
        if (!sp_results_metadata_at(r, i, &it)) continue;
        PyObject *v = metadata_value(&it);
        if (!v || PyDict_SetItemString(dict, it.key, v) < 0) Py_CLEAR(dict);
        Py_XDECREF(v);
    }
    return dict;
}

static PyObject *times(PyObject *o, double (*get)(const sp_results *)) {
    return sppy_float_or_none(get(((sppy_results *)o)->results));
}

static PyObject *minimum_start_time(PyObject *o, void *c) {
    (void)c;
    return times(o, sp_results_minimum_start_time);
}
static PyObject *maximum_end_time(PyObject *o, void *c) {
    (void)c;
    return times(o, sp_results_maximum_end_time);
}
static PyObject *total_time(PyObject *o, void *c) {
    (void)c;
    return times(o, sp_results_total_time);
}

static PyGetSetDef results_getset[] = {
    {"region_names", region_names, NULL, "Region names in file order.", NULL},
    {"num_ranks", num_ranks, NULL, "Ranks of the run.", NULL},
    {"time_origin", time_origin, NULL, "Start of the run, seconds on the file's clock.", NULL},
    {"file_path", file_path, NULL, "The path the results were read from.", NULL},
    {"label", label, NULL, "The run's label (or the file's stem).", NULL},
    {"metadata", metadata, NULL, "The run's metadata as a dict.", NULL},
    {"minimum_start_time", minimum_start_time, NULL, "Earliest call start, s.", NULL},
    {"maximum_end_time", maximum_end_time, NULL, "Latest call end, s.", NULL},
    {"total_time", total_time, NULL, "finalize - start of the run, s (None if unknown).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* --- get_regions, summary, print_summary --------------------------------- */

static PyObject *get_regions(PyObject *o, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"include", "exclude", "ranks", NULL};
    PyObject *inc = NULL, *exc = NULL, *ranks = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:get_regions", keywords, &inc, &exc,
                                     &ranks))
        return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) return NULL;
    sppy_results *self = (sppy_results *)o;
    size_t count = 0;
    sp_error err = {0};
    const sp_mpi_region **list = sp_results_get_regions(self->results, &f.filter, &count, &err);
    sppy_filter_clear(&f);
    if (!list) return sppy_raise(&err);
    PyObject *out = PyList_New((Py_ssize_t)count);
    for (size_t i = 0; out && i < count; i++) {
        PyObject *r = sppy_mpi_region_new(self, list[i]);
        if (!r) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, r);
    }
    sp_region_list_free(list);
    return out;
}

static PyObject *tags_list(const char *json) {
    return sppy_json_loads(json && *json ? json : "[]");
}

/* One summary() row with the Python package's keys, in its order. */
static PyObject *pooled_row(const sp_summary_row *r) {
    PyObject *tags = tags_list(r->tags);
    if (!tags) return NULL;
    PyObject *p50 = r->has_percentiles ? PyFloat_FromDouble(r->p50_duration) : Py_NewRef(Py_None);
    PyObject *p95 = r->has_percentiles ? PyFloat_FromDouble(r->p95_duration) : Py_NewRef(Py_None);
    PyObject *p99 = r->has_percentiles ? PyFloat_FromDouble(r->p99_duration) : Py_NewRef(Py_None);
    PyObject *row = Py_BuildValue(
        "{ss sK sK sN sN sN sN sN sN sN sN sN sO sO sO sO sN sN sO sO sO sN}", "name", r->name,
        "num_ranks", (unsigned long long)r->num_ranks, "num_calls",
        (unsigned long long)r->num_calls, "total_duration", sppy_float_or_none(r->total_duration),
        "inclusive_duration", sppy_float_or_none(r->inclusive_duration), "exclusive_duration",
        sppy_float_or_none(r->exclusive_duration), "average_duration",
        sppy_float_or_none(r->average_duration), "min_duration",
        sppy_float_or_none(r->min_duration), "max_duration", sppy_float_or_none(r->max_duration),
        "first_duration", sppy_float_or_none(r->first_duration), "last_duration",
        sppy_float_or_none(r->last_duration), "std_duration", sppy_float_or_none(r->std_duration),
        "tags", tags, "p50_duration", p50, "p95_duration", p95, "p99_duration", p99,
        "rank_imbalance", sppy_float_or_none(r->rank_imbalance), "rank_imbalance_pct",
        sppy_float_or_none(r->rank_imbalance_pct), "p50", p50, "p95", p95, "p99", p99, "imbalance",
        sppy_float_or_none(r->rank_imbalance_pct));
    Py_DECREF(tags);
    Py_DECREF(p50);
    Py_DECREF(p95);
    Py_DECREF(p99);
    /* percentiles from an aggregate file's histograms carry their error bound (as inspect --format
     * json) */
    if (row && r->has_percentiles && r->percentile_error > 0.0) {
        PyObject *e = PyFloat_FromDouble(r->percentile_error);
        if (!e || PyDict_SetItemString(row, "percentile_relative_error", e) < 0) Py_CLEAR(row);
        Py_XDECREF(e);
    }
    return row;
}

/* One to_dataframe(per_rank=True) row: name, rank, get_summary() keys, percentiles. */
static PyObject *rank_row(const sp_summary_row *r) {
    PyObject *p50 = r->has_percentiles ? PyFloat_FromDouble(r->p50_duration) : Py_NewRef(Py_None);
    PyObject *p95 = r->has_percentiles ? PyFloat_FromDouble(r->p95_duration) : Py_NewRef(Py_None);
    PyObject *p99 = r->has_percentiles ? PyFloat_FromDouble(r->p99_duration) : Py_NewRef(Py_None);
    PyObject *row = Py_BuildValue(
        "{ss sL sK sN sN sN sN sN sN sN sN sN sO sO sO}", "name", r->name, "rank",
        (long long)r->rank, "num_calls", (unsigned long long)r->num_calls, "total_duration",
        sppy_float_or_none(r->total_duration), "inclusive_duration",
        sppy_float_or_none(r->inclusive_duration), "exclusive_duration",
        sppy_float_or_none(r->exclusive_duration), "average_duration",
        sppy_float_or_none(r->average_duration), "min_duration",
        sppy_float_or_none(r->min_duration), "max_duration", sppy_float_or_none(r->max_duration),
        "first_duration", sppy_float_or_none(r->first_duration), "last_duration",
        sppy_float_or_none(r->last_duration), "std_duration", sppy_float_or_none(r->std_duration),
        "p50_duration", p50, "p95_duration", p95, "p99_duration", p99);
    Py_DECREF(p50);
    Py_DECREF(p95);
    Py_DECREF(p99);
    return row;
}

static PyObject *summary(PyObject *o, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"include", "exclude", "ranks", "per_rank", NULL};
    PyObject *inc = NULL, *exc = NULL, *ranks = NULL;
    int per_rank = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOOp:summary", keywords, &inc, &exc, &ranks,
                                     &per_rank))
        return NULL;
    sppy_filter f;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) return NULL;
    sp_error err = {0};
    sp_summary_rows *rows =
        sp_results_summary(((sppy_results *)o)->results, &f.filter, per_rank, &err);
    sppy_filter_clear(&f);
    if (!rows) return sppy_raise(&err);
    PyObject *out = PyList_New((Py_ssize_t)rows->count);
    for (size_t i = 0; out && i < rows->count; i++) {
        PyObject *row = per_rank ? rank_row(&rows->rows[i]) : pooled_row(&rows->rows[i]);
        if (!row) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, row);
    }
    sp_summary_rows_free(rows);
    return out;
}

typedef struct print_ctx {
    const sp_results *results;
    sp_print_options *options;
} print_ctx;

static sp_status print_into(FILE *out, void *ctx, sp_error *err) {
    print_ctx *c = ctx;
    return sp_print_summary(c->results, out, c->options, err);
}

static PyObject *format_summary(PyObject *o, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"sort",           "columns", "include", "exclude", "ranks",
                               "suppress_notes", "ascii",   "title",   "top",     NULL};
    PyObject *columns = NULL, *inc = NULL, *exc = NULL, *ranks = NULL, *sort_o = NULL,
             *title_o = NULL;
    const char *sort = NULL, *title = NULL;
    int suppress = 0, ascii = 0;
    Py_ssize_t top = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOOOOppOn:print_summary", keywords, &sort_o,
                                     &columns, &inc, &exc, &ranks, &suppress, &ascii, &title_o,
                                     &top))
        return NULL;
    if (sppy_str_arg(sort_o, "print_summary", "sort", 1, &sort) < 0 ||
        sppy_str_arg(title_o, "print_summary", "title", 1, &title) < 0)
        return NULL;
    if (top < 0) return PyErr_Format(PyExc_ValueError, "print_summary(): top must be 0 or more");
    sppy_filter f, cols;
    if (sppy_filter_parse(inc, exc, ranks, &f) < 0) return NULL;
    /* columns reuse the pattern conversion (a str or a list of str) */
    if (columns && columns != Py_None && !PyUnicode_Check(columns) && !PyList_Check(columns) &&
        !PyTuple_Check(columns)) {
        sppy_filter_clear(&f);
        return PyErr_Format(PyExc_TypeError,
                            "print_summary() argument 'columns' must be a list of str, not %.100s",
                            Py_TYPE(columns)->tp_name);
    }
    if (sppy_filter_parse(columns, NULL, NULL, &cols) < 0) {
        sppy_filter_clear(&f);
        return NULL;
    }
    sp_print_options opts = {0};
    opts.sort = sort;
    if (columns && columns != Py_None) {
        opts.columns = cols.include ? cols.include : (const char *const *)"";
        opts.num_columns = cols.filter.num_include;
    }
    opts.filter = f.filter;
    opts.suppress_notes = suppress;
    opts.ascii = ascii;
    opts.title = title;
    opts.top = (size_t)top;
    print_ctx ctx = {((sppy_results *)o)->results, &opts};
    PyObject *text = sppy_capture(print_into, &ctx);
    sppy_filter_clear(&f);
    sppy_filter_clear(&cols);
    return text;
}

static PyObject *print_summary(PyObject *o, PyObject *args, PyObject *kwargs) {
    PyObject *text = format_summary(o, args, kwargs);
    if (!text) return NULL;
    PyObject *out = PySys_GetObject("stdout");
    int rc = out && out != Py_None ? PyFile_WriteObject(text, out, Py_PRINT_RAW) : 0;
    Py_DECREF(text);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* to_dataframe(): the summary() rows (or per-rank rows) as a pandas DataFrame. */
static PyObject *to_dataframe(PyObject *o, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"per_rank", "include", "exclude", "ranks", NULL};
    int per_rank = 0;
    PyObject *inc = Py_None, *exc = Py_None, *ranks = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pOOO:to_dataframe", keywords, &per_rank, &inc,
                                     &exc, &ranks))
        return NULL;
    PyObject *pandas = PyImport_ImportModule("pandas");
    if (!pandas) {
        PyErr_SetString(PyExc_ImportError, "to_dataframe() needs pandas (Debian: apt-get install "
                                           "python3-pandas; or pip install pandas)");
        return NULL;
    }
    PyObject *sargs = PyTuple_New(0);
    PyObject *skw = Py_BuildValue("{sOsOsOsO}", "include", inc, "exclude", exc, "ranks", ranks,
                                  "per_rank", per_rank ? Py_True : Py_False);
    PyObject *rows = sargs && skw ? summary(o, sargs, skw) : NULL;
    PyObject *frame = rows ? PyObject_CallMethod(pandas, "DataFrame", "O", rows) : NULL;
    Py_XDECREF(rows);
    Py_XDECREF(sargs);
    Py_XDECREF(skw);
    Py_DECREF(pandas);
    return frame;
}

static PyMethodDef results_methods[] = {
    {"to_dataframe", (PyCFunction)(void (*)(void))to_dataframe, METH_VARARGS | METH_KEYWORDS,
     "to_dataframe(per_rank=False, include=None, exclude=None, ranks=None): needs pandas."},
    {"get_regions", (PyCFunction)(void (*)(void))get_regions, METH_VARARGS | METH_KEYWORDS,
     "get_regions(include=None, exclude=None, ranks=None): MPIRegions by first start."},
    {"summary", (PyCFunction)(void (*)(void))summary, METH_VARARGS | METH_KEYWORDS,
     "summary(include=None, exclude=None, ranks=None, per_rank=False): one dict per region."},
    {"print_summary", (PyCFunction)(void (*)(void))print_summary, METH_VARARGS | METH_KEYWORDS,
     "print_summary(sort=None, columns=None, include=None, exclude=None, suppress_notes=False): "
     "prints the nested table."},
    {"format_summary", (PyCFunction)(void (*)(void))format_summary, METH_VARARGS | METH_KEYWORDS,
     "format_summary(...): the text print_summary() prints."},
    {"keys", keys, METH_NOARGS, "Region names."},
    {"values", values, METH_NOARGS, "MPIRegions in file order."},
    {"items", items, METH_NOARGS, "(name, MPIRegion) pairs."},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods results_sequence = {.sq_contains = results_contains};
static PyMappingMethods results_mapping = {.mp_length = results_len,
                                           .mp_subscript = results_getitem};

PyTypeObject sppy_results_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler.ProfilingResults",
    .tp_basicsize = sizeof(sppy_results),
    .tp_dealloc = results_dealloc,
    .tp_repr = results_repr,
    .tp_as_sequence = &results_sequence,
    .tp_as_mapping = &results_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "One profile: an ordered mapping of region name to MPIRegion (read_h5()).",
    .tp_iter = results_iter,
    .tp_methods = results_methods,
    .tp_getset = results_getset,
};

PyMethodDef sppy_analysis_methods[] = {
    {"read_h5", (PyCFunction)(void (*)(void))py_read_h5, METH_VARARGS | METH_KEYWORDS,
     "read_h5(file_path): reads a profile into a ProfilingResults."},
    {NULL, NULL, 0, NULL}};
