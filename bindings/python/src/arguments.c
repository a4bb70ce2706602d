/* Argument conversions shared by the module's functions: filters and runs. */
#include "sp_py.h"

#include <stdlib.h>

/* Patterns of one argument into an array of UTF-8 pointers kept alive by keep. */
static int patterns(PyObject *arg, const char *argname, PyObject *keep, const char ***out,
                    size_t *count) {
    *out = NULL;
    *count = 0;
    if (!arg || arg == Py_None) return 0;
    PyObject *seq;
    if (PyUnicode_Check(arg)) {
        seq = PyTuple_Pack(1, arg);
    } else if (PyList_Check(arg) || PyTuple_Check(arg)) {
        seq = PySequence_Tuple(arg);
    } else {
        PyErr_Format(PyExc_TypeError, "%s must be a str, a list of str or None, not %.100s",
                     argname, Py_TYPE(arg)->tp_name);
        return -1;
    }
    if (!seq) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    const char **items = calloc((size_t)n + 1, sizeof *items);
    if (!items) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s must hold str patterns, not %.100s", argname,
                         Py_TYPE(item)->tp_name);
            goto fail;
        }
        PyObject *bytes = PyUnicode_AsUTF8String(item);
        if (!bytes) goto fail;
        int added = PyList_Append(keep, bytes);
        Py_DECREF(bytes);
        if (added < 0) goto fail;
        items[i] = PyBytes_AS_STRING(bytes);
    }
    Py_DECREF(seq);
    *out = items;
    *count = (size_t)n;
    return 0;
fail:
    Py_DECREF(seq);
    free(items);
    return -1;
}

static int rank_list(PyObject *arg, uint32_t **out, size_t *count) {
    *out = NULL;
    *count = 0;
    if (!arg || arg == Py_None) return 0;
    PyObject *seq =
        PyLong_Check(arg)
            ? PyTuple_Pack(1, arg)
            : ((PyList_Check(arg) || PyTuple_Check(arg)) ? PySequence_Tuple(arg) : NULL);
    if (!seq) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "ranks must be an int, a list of int or None, not %.100s",
                         Py_TYPE(arg)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    uint32_t *ranks = calloc((size_t)n + 1, sizeof *ranks);
    if (!ranks) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        long v = PyLong_Check(item) ? PyLong_AsLong(item) : -2;
        if (v == -2 && !PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "ranks must hold int ranks, not %.100s",
                         Py_TYPE(item)->tp_name);
        } else if (!PyErr_Occurred() && (v < 0 || v > (long)UINT32_MAX - 1)) {
            PyErr_Format(PyExc_ValueError, "ranks: %ld is not a rank (0 or more)", v);
        }
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            free(ranks);
            return -1;
        }
        ranks[i] = (uint32_t)v;
    }
    Py_DECREF(seq);
    *out = ranks;
    *count = (size_t)n;
    return 0;
}

int sppy_filter_parse(PyObject *include, PyObject *exclude, PyObject *ranks, sppy_filter *out) {
    memset(out, 0, sizeof *out);
    out->keep = PyList_New(0);
    if (!out->keep) return -1;
    if (patterns(include, "include", out->keep, &out->include, &out->filter.num_include) < 0 ||
        patterns(exclude, "exclude", out->keep, &out->exclude, &out->filter.num_exclude) < 0 ||
        rank_list(ranks, &out->ranks, &out->filter.num_ranks) < 0) {
        sppy_filter_clear(out);
        return -1;
    }
    out->filter.include = out->include;
    out->filter.exclude = out->exclude;
    out->filter.ranks = out->ranks;
    return 0;
}

void sppy_filter_clear(sppy_filter *f) {
    free(f->include);
    free(f->exclude);
    free(f->ranks);
    Py_CLEAR(f->keep);
    memset(f, 0, sizeof *f);
}

/* One run: a ProfilingResults as it is, a path read now. New reference. */
static PyObject *one_run(PyObject *item, const char *argname) {
    if (PyObject_TypeCheck(item, &sppy_results_type)) {
        Py_INCREF(item);
        return item;
    }
    if (PyUnicode_Check(item) || PyBytes_Check(item) || PyObject_HasAttrString(item, "__fspath__"))
        return sppy_read_path(item);
    PyErr_Format(PyExc_TypeError, "%s must be a ProfilingResults or a path, not %.100s", argname,
                 Py_TYPE(item)->tp_name);
    return NULL;
}

int sppy_runs_parse(PyObject *arg, const char *argname, sppy_runs *out) {
    memset(out, 0, sizeof *out);
    out->holders = PyList_New(0);
    if (!out->holders) return -1;
    PyObject *seq =
        (PyList_Check(arg) || PyTuple_Check(arg)) ? PySequence_Tuple(arg) : PyTuple_Pack(1, arg);
    if (!seq) goto fail;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    out->runs = calloc((size_t)n + 1, sizeof *out->runs);
    if (!out->runs) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *run = one_run(PyTuple_GET_ITEM(seq, i), argname);
        if (!run || PyList_Append(out->holders, run) < 0) {
            Py_XDECREF(run);
            Py_DECREF(seq);
            goto fail;
        }
        out->runs[i] = ((sppy_results *)run)->results;
        Py_DECREF(run);
    }
    Py_DECREF(seq);
    out->count = (size_t)n;
    return 0;
fail:
    sppy_runs_clear(out);
    return -1;
}

void sppy_runs_clear(sppy_runs *runs) {
    free(runs->runs);
    Py_CLEAR(runs->holders);
    memset(runs, 0, sizeof *runs);
}

int sppy_str_arg(PyObject *o, const char *func, const char *name, int allow_none,
                 const char **out) {
    if (!o || (allow_none && o == Py_None)) return 0;
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be str%s, not %.100s", func, name,
                     allow_none ? " or None" : "", Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = PyUnicode_AsUTF8(o);
    return *out ? 0 : -1;
}
