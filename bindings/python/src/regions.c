/* MPIRegion (one region over all ranks) and Region (one rank): values from the C analysis. */
#include "sp_py.h"

#define NPY_NO_DEPRECATED_API  NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL sppy_numpy_api
#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <stdlib.h>

/* --- MPIRegion ------------------------------------------------------------ */

PyObject *sppy_mpi_region_new(sppy_results *owner, const sp_mpi_region *region) {
    sppy_mpi_region *self = PyObject_New(sppy_mpi_region, &sppy_mpi_region_type);
    if (!self) return NULL;
    self->owner = (sppy_results *)Py_NewRef(owner);
    self->region = region;
    return (PyObject *)self;
}

static void mpi_region_dealloc(PyObject *o) {
    Py_XDECREF(((sppy_mpi_region *)o)->owner);
    Py_TYPE(o)->tp_free(o);
}

#define MR(o) (((sppy_mpi_region *)(o))->region)

static PyObject *mr_repr(PyObject *o) {
    char buf[1024];
    int n = sp_mpi_region_describe(MR(o), buf, sizeof buf);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
    return PyUnicode_DecodeUTF8(buf, n, "replace");
}

static PyObject *mr_name(PyObject *o, void *c) {
    (void)c;
    return PyUnicode_FromString(sp_mpi_region_name(MR(o)));
}

static PyObject *mr_ranks(PyObject *o, void *c) {
    (void)c;
    size_t n = sp_mpi_region_num_ranks(MR(o));
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(sp_mpi_region_rank_id(MR(o), i));
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *mr_num_calls(PyObject *o, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(sp_mpi_region_num_calls(MR(o)));
}

#define MR_FLOAT(attr, fn)                                                                         \
    static PyObject *mr_##attr(PyObject *o, void *c) {                                             \
        (void)c;                                                                                   \
        return sppy_float_or_none(fn(MR(o)));                                                      \
    }
MR_FLOAT(total_duration, sp_mpi_region_total_duration)
MR_FLOAT(average_duration, sp_mpi_region_average_duration)
MR_FLOAT(min_duration, sp_mpi_region_min_duration)
MR_FLOAT(max_duration, sp_mpi_region_max_duration)
MR_FLOAT(std_duration, sp_mpi_region_std_duration)
MR_FLOAT(first_duration, sp_mpi_region_first_duration)
MR_FLOAT(last_duration, sp_mpi_region_last_duration)
MR_FLOAT(inclusive_duration, sp_mpi_region_inclusive_duration)
MR_FLOAT(imbalance, sp_mpi_region_imbalance_pct)
MR_FLOAT(first_start_time, sp_mpi_region_first_start_time)
MR_FLOAT(last_end_time, sp_mpi_region_last_end_time)

static PyObject *mr_exclusive_duration(PyObject *o, void *c) {
    (void)c;
    sp_error err = {0};
    double v = sp_mpi_region_exclusive_duration(MR(o), &err);
    if (err.status) return sppy_raise(&err);
    return PyFloat_FromDouble(v);
}

static PyObject *mr_regions(PyObject *o, void *c);

static PyGetSetDef mr_getset[] = {
    {"name", mr_name, NULL, "The region's name.", NULL},
    {"ranks", mr_ranks, NULL, "Ranks that recorded the region, ascending.", NULL},
    {"num_calls", mr_num_calls, NULL, "Calls over all ranks.", NULL},
    {"total_duration", mr_total_duration, NULL, "Sum of the per-rank totals, s.", NULL},
    {"average_duration", mr_average_duration, NULL, "Mean duration per call, s.", NULL},
    {"min_duration", mr_min_duration, NULL, "Shortest call, s.", NULL},
    {"max_duration", mr_max_duration, NULL, "Longest call, s.", NULL},
    {"std_duration", mr_std_duration, NULL, "Population standard deviation, s.", NULL},
    {"first_duration", mr_first_duration, NULL, "Duration of the first call, s.", NULL},
    {"last_duration", mr_last_duration, NULL, "Duration of the last call, s.", NULL},
    {"inclusive_duration", mr_inclusive_duration, NULL, "= total_duration.", NULL},
    {"exclusive_duration", mr_exclusive_duration, NULL, "Total minus direct children, s.", NULL},
    {"imbalance", mr_imbalance, NULL, "(max/mean of the per-rank totals - 1) * 100.", NULL},
    {"first_start_time", mr_first_start_time, NULL, "Earliest start, s on the file's clock.", NULL},
    {"last_end_time", mr_last_end_time, NULL, "Latest end, s on the file's clock.", NULL},
    {"regions", mr_regions, NULL, "{rank: Region}.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* {rank: value} from one of the per-rank accessors. */
typedef size_t (*per_rank_doubles)(const sp_mpi_region *, double *, size_t);

static PyObject *per_rank_dict(PyObject *o, per_rank_doubles fn) {
    size_t n = sp_mpi_region_num_ranks(MR(o));
    double *values = calloc(n + 1, sizeof *values);
    if (!values) return PyErr_NoMemory();
    fn(MR(o), values, n);
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < n; i++) {
        PyObject *k = PyLong_FromUnsignedLong(sp_mpi_region_rank_id(MR(o), i));
        PyObject *v = sppy_float_or_none(values[i]);
        if (!k || !v || PyDict_SetItem(dict, k, v) < 0) Py_CLEAR(dict);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    free(values);
    return dict;
}

static PyObject *num_calls_per_rank(PyObject *o, PyObject *unused) {
    (void)unused;
    size_t n = sp_mpi_region_num_ranks(MR(o));
    uint64_t *counts = calloc(n + 1, sizeof *counts);
    if (!counts) return PyErr_NoMemory();
    sp_mpi_region_num_calls_per_rank(MR(o), counts, n);
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < n; i++) {
        PyObject *k = PyLong_FromUnsignedLong(sp_mpi_region_rank_id(MR(o), i));
        PyObject *v = PyLong_FromUnsignedLongLong(counts[i]);
        if (!k || !v || PyDict_SetItem(dict, k, v) < 0) Py_CLEAR(dict);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    free(counts);
    return dict;
}

#define MR_PER_RANK(pyname, fn)                                                                    \
    static PyObject *pyname(PyObject *o, PyObject *unused) {                                       \
        (void)unused;                                                                              \
        return per_rank_dict(o, fn);                                                               \
    }
MR_PER_RANK(total_durations, sp_mpi_region_total_durations)
MR_PER_RANK(average_durations, sp_mpi_region_average_durations)
MR_PER_RANK(min_durations, sp_mpi_region_min_durations)
MR_PER_RANK(max_durations, sp_mpi_region_max_durations)

/* percentile()'s q: a number in [0, 100]; 0 with the exception set otherwise. */
static int percentile_arg(PyObject *arg, double *q) {
    *q = PyFloat_AsDouble(arg);
    if (*q == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "percentile() argument 'q' must be a number, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return 0;
    }
    if (!(*q >= 0 && *q <= 100)) {
        PyErr_Format(PyExc_ValueError, "percentile(): q must be in [0, 100]");
        return 0;
    }
    return 1;
}

static PyObject *mr_get_summary(PyObject *o, PyObject *unused) {
    (void)unused;
    sp_summary s;
    sp_error err = {0};
    if (sp_mpi_region_get_summary(MR(o), &s, &err) != SP_OK) return sppy_raise(&err);
    return sppy_summary_dict(&s);
}

static PyObject *mr_percentile(PyObject *o, PyObject *arg) {
    double q;
    if (!percentile_arg(arg, &q)) return NULL;
    sp_error err = {0};
    double v = sp_mpi_region_percentile(MR(o), q, &err);
    if (err.status) return sppy_raise(&err);
    return PyFloat_FromDouble(v);
}

static PyObject *mr_getitem(PyObject *o, PyObject *key) {
    if (!PyLong_Check(key))
        return PyErr_Format(PyExc_TypeError, "MPIRegion indices are ranks (int), not %.100s",
                            Py_TYPE(key)->tp_name);
    long rank = PyLong_AsLong(key);
    if (rank == -1 && PyErr_Occurred()) return NULL;
    sp_error err = {0};
    const sp_rank_region *rr = rank < 0 || rank > (long)UINT32_MAX
                                   ? NULL
                                   : sp_mpi_region_rank(MR(o), (uint32_t)rank, &err);
    if (!rr) {
        if (!err.status) {
            err.status = SP_ERR_NO_SUCH_RANK;
            snprintf(err.message, sizeof err.message, "Region '%s' has no data for rank %ld",
                     sp_mpi_region_name(MR(o)), rank);
        }
        return sppy_raise(&err);
    }
    return sppy_region_new(((sppy_mpi_region *)o)->owner, rr);
}

static Py_ssize_t mr_len(PyObject *o) {
    return (Py_ssize_t)sp_mpi_region_num_ranks(MR(o));
}

static PyObject *mr_regions(PyObject *o, void *c) {
    (void)c;
    size_t n = sp_mpi_region_num_ranks(MR(o));
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < n; i++) {
        uint32_t rank = sp_mpi_region_rank_id(MR(o), i);
        const sp_rank_region *rr = sp_mpi_region_rank(MR(o), rank, NULL);
        PyObject *k = PyLong_FromUnsignedLong(rank);
        PyObject *v = rr ? sppy_region_new(((sppy_mpi_region *)o)->owner, rr) : NULL;
        if (!k || !v || PyDict_SetItem(dict, k, v) < 0) Py_CLEAR(dict);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return dict;
}

static PyMethodDef mr_methods[] = {
    {"num_calls_per_rank", num_calls_per_rank, METH_NOARGS, "{rank: calls}."},
    {"total_durations", total_durations, METH_NOARGS, "{rank: total seconds}."},
    {"average_durations", average_durations, METH_NOARGS, "{rank: mean seconds per call}."},
    {"min_durations", min_durations, METH_NOARGS, "{rank: shortest call, s}."},
    {"max_durations", max_durations, METH_NOARGS, "{rank: longest call, s}."},
    {"get_summary", mr_get_summary, METH_NOARGS, "The pooled statistics as a dict."},
    {"percentile", mr_percentile, METH_O, "percentile(q): of the pooled durations, s."},
    {NULL, NULL, 0, NULL}};

static PyMappingMethods mr_mapping = {.mp_length = mr_len, .mp_subscript = mr_getitem};

PyTypeObject sppy_mpi_region_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler.MPIRegion",
    .tp_basicsize = sizeof(sppy_mpi_region),
    .tp_dealloc = mpi_region_dealloc,
    .tp_repr = mr_repr,
    .tp_as_mapping = &mr_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One region over every rank that recorded it; index by rank for a Region.",
    .tp_methods = mr_methods,
    .tp_getset = mr_getset,
};

/* --- Region (one rank) ---------------------------------------------------- */

PyObject *sppy_region_new(sppy_results *owner, const sp_rank_region *region) {
    sppy_region *self = PyObject_New(sppy_region, &sppy_region_type);
    if (!self) return NULL;
    self->owner = (sppy_results *)Py_NewRef(owner);
    self->region = region;
    self->durations = self->start_times = self->end_times = NULL;
    return (PyObject *)self;
}

static void region_dealloc(PyObject *o) {
    sppy_region *self = (sppy_region *)o;
    Py_XDECREF(self->durations);
    Py_XDECREF(self->start_times);
    Py_XDECREF(self->end_times);
    Py_XDECREF(self->owner);
    Py_TYPE(o)->tp_free(o);
}

#define RR(o) (((sppy_region *)(o))->region)

typedef sp_status (*column_fn)(const sp_rank_region *, double *, size_t);

/* A read-only float64 array filled by fn, cached in *slot. */
static PyObject *column(PyObject *o, PyObject **slot, column_fn fn) {
    if (*slot) return Py_NewRef(*slot);
    npy_intp n = (npy_intp)sp_rank_region_num_calls(RR(o));
    PyObject *array = PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (!array) return NULL;
    sp_status st = fn(RR(o), (double *)PyArray_DATA((PyArrayObject *)array), (size_t)n);
    if (st != SP_OK) {
        Py_DECREF(array);
        return sppy_raise_status(st, "this file holds no per-call data (an aggregate-layout "
                                     "profile): durations, start_times and end_times are not "
                                     "available; use the statistics instead");
    }
    PyArray_CLEARFLAGS((PyArrayObject *)array, NPY_ARRAY_WRITEABLE);
    *slot = array;
    return Py_NewRef(array);
}

static PyObject *rr_durations(PyObject *o, void *c) {
    (void)c;
    return column(o, &((sppy_region *)o)->durations, sp_rank_region_durations);
}
static PyObject *rr_start_times(PyObject *o, void *c) {
    (void)c;
    return column(o, &((sppy_region *)o)->start_times, sp_rank_region_start_times);
}
static PyObject *rr_end_times(PyObject *o, void *c) {
    (void)c;
    return column(o, &((sppy_region *)o)->end_times, sp_rank_region_end_times);
}

static PyObject *rr_name(PyObject *o, void *c) {
    (void)c;
    return PyUnicode_FromString(sp_rank_region_name(RR(o)));
}
static PyObject *rr_rank(PyObject *o, void *c) {
    (void)c;
    return PyLong_FromUnsignedLong(sp_rank_region_rank(RR(o)));
}
static PyObject *rr_num_calls(PyObject *o, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(sp_rank_region_num_calls(RR(o)));
}

#define RR_FLOAT(attr, fn)                                                                         \
    static PyObject *rr_##attr(PyObject *o, void *c) {                                             \
        (void)c;                                                                                   \
        return sppy_float_or_none(fn(RR(o)));                                                      \
    }
RR_FLOAT(total_duration, sp_rank_region_total_duration)
RR_FLOAT(average_duration, sp_rank_region_average_duration)
RR_FLOAT(min_duration, sp_rank_region_min_duration)
RR_FLOAT(max_duration, sp_rank_region_max_duration)
RR_FLOAT(std_duration, sp_rank_region_std_duration)
RR_FLOAT(first_duration, sp_rank_region_first_duration)
RR_FLOAT(last_duration, sp_rank_region_last_duration)
RR_FLOAT(first_start_time, sp_rank_region_first_start_time)
RR_FLOAT(last_end_time, sp_rank_region_last_end_time)

static PyObject *rr_exclusive_duration(PyObject *o, void *c) {
    (void)c;
    sp_error err = {0};
    double v = sp_rank_region_exclusive_duration(RR(o), &err);
    if (err.status) return sppy_raise(&err);
    return PyFloat_FromDouble(v);
}

static PyObject *rr_get_summary(PyObject *o, PyObject *unused) {
    (void)unused;
    sp_summary s;
    sp_error err = {0};
    if (sp_rank_region_get_summary(RR(o), &s, &err) != SP_OK) return sppy_raise(&err);
    return sppy_summary_dict(&s);
}

static PyObject *rr_percentile(PyObject *o, PyObject *arg) {
    double q;
    if (!percentile_arg(arg, &q)) return NULL;
    sp_error err = {0};
    double v = sp_rank_region_percentile(RR(o), q, &err);
    if (err.status) return sppy_raise(&err);
    return PyFloat_FromDouble(v);
}

static PyObject *rr_repr(PyObject *o) {
    return PyUnicode_FromFormat("<Region '%s' on rank %lu: %llu calls>", sp_rank_region_name(RR(o)),
                                (unsigned long)sp_rank_region_rank(RR(o)),
                                (unsigned long long)sp_rank_region_num_calls(RR(o)));
}

static Py_ssize_t rr_len(PyObject *o) {
    return (Py_ssize_t)sp_rank_region_num_calls(RR(o));
}

static PyGetSetDef rr_getset[] = {
    {"name", rr_name, NULL, "The region's name.", NULL},
    {"rank", rr_rank, NULL, "The rank.", NULL},
    {"num_calls", rr_num_calls, NULL, "Calls on this rank.", NULL},
    {"durations", rr_durations, NULL, "Per-call durations, s (read-only float64 array).", NULL},
    {"start_times", rr_start_times, NULL, "Per-call starts, s on the file's clock.", NULL},
    {"end_times", rr_end_times, NULL, "Per-call ends, s on the file's clock.", NULL},
    {"total_duration", rr_total_duration, NULL, "Sum of the durations, s.", NULL},
    {"average_duration", rr_average_duration, NULL, "Mean duration, s.", NULL},
    {"min_duration", rr_min_duration, NULL, "Shortest call, s.", NULL},
    {"max_duration", rr_max_duration, NULL, "Longest call, s.", NULL},
    {"std_duration", rr_std_duration, NULL, "Population standard deviation, s.", NULL},
    {"first_duration", rr_first_duration, NULL, "First call, s.", NULL},
    {"last_duration", rr_last_duration, NULL, "Last call, s.", NULL},
    {"exclusive_duration", rr_exclusive_duration, NULL, "Total minus direct children, s.", NULL},
    {"first_start_time", rr_first_start_time, NULL, "Earliest start, s.", NULL},
    {"last_end_time", rr_last_end_time, NULL, "Latest end, s.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef rr_methods[] = {
    {"get_summary", rr_get_summary, METH_NOARGS, "This rank's statistics as a dict."},
    {"percentile", rr_percentile, METH_O, "percentile(q): of this rank's durations, s."},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods rr_sequence = {.sq_length = rr_len};

PyTypeObject sppy_region_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler.Region",
    .tp_basicsize = sizeof(sppy_region),
    .tp_dealloc = region_dealloc,
    .tp_repr = rr_repr,
    .tp_as_sequence = &rr_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One region on one rank: the per-call arrays and their statistics.",
    .tp_methods = rr_methods,
    .tp_getset = rr_getset,
};
