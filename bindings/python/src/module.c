/* The module: types, exceptions and the mapping of sp_status onto Python's exceptions. */
#include "sp_py.h"

#define NPY_NO_DEPRECATED_API  NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL sppy_numpy_api
#include <numpy/arrayobject.h>

PyObject *sppy_corrupt_error;

PyObject *sppy_raise_status(sp_status status, const char *message) {
    PyObject *type;
    switch (status) {
    case SP_ERR_NO_SUCH_FILE:
    case SP_ERR_NO_DIRECTORY:
        type = PyExc_FileNotFoundError;
        break;
    case SP_ERR_PERMISSION:
        type = PyExc_PermissionError;
        break;
    case SP_ERR_IO:
    case SP_ERR_DISK_FULL:
    case SP_ERR_HDF5:
        type = PyExc_OSError;
        break;
    case SP_ERR_NOT_HDF5:
    case SP_ERR_NOT_A_PROFILE:
    case SP_ERR_SCHEMA_TOO_NEW:
    case SP_ERR_DAMAGED:
    case SP_ERR_BAD_DATASET:
    case SP_ERR_NESTING:
        type = sppy_corrupt_error;
        break;
    case SP_ERR_OUT_OF_MEMORY:
        return PyErr_NoMemory();
    case SP_ERR_NO_SUCH_REGION:
    case SP_ERR_NO_SUCH_RANK:
        type = PyExc_KeyError;
        break;
    case SP_ERR_INVALID_ARGUMENT:
    case SP_ERR_BAD_PATTERN:
    case SP_ERR_BAD_OPTION:
    case SP_ERR_UNAVAILABLE:
        type = PyExc_ValueError;
        break;
    default:
        type = PyExc_RuntimeError;
        break;
    }
    PyErr_SetString(type, message && *message ? message : sp_status_string(status));
    return NULL;
}

PyObject *sppy_raise(const sp_error *err) {
    return sppy_raise_status(err->status, err->message);
}

PyObject *sppy_float_or_none(double v) {
    if (v != v) Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}

PyObject *sppy_summary_dict(const sp_summary *s) {
    return Py_BuildValue(
        "{sK sN sN sN sN sN sN sN sN sN}", "num_calls", (unsigned long long)s->num_calls,
        "total_duration", sppy_float_or_none(s->total_duration), "inclusive_duration",
        sppy_float_or_none(s->inclusive_duration), "exclusive_duration",
        sppy_float_or_none(s->exclusive_duration), "average_duration",
        sppy_float_or_none(s->average_duration), "min_duration",
        sppy_float_or_none(s->min_duration), "max_duration", sppy_float_or_none(s->max_duration),
        "first_duration", sppy_float_or_none(s->first_duration), "last_duration",
        sppy_float_or_none(s->last_duration), "std_duration", sppy_float_or_none(s->std_duration));
}

PyObject *sppy_json_loads(const char *text) {
    PyObject *json = PyImport_ImportModule("json");
    if (!json) return NULL;
    PyObject *out = PyObject_CallMethod(json, "loads", "s", text);
    Py_DECREF(json);
    return out;
}

PyObject *sppy_capture(sppy_writer fn, void *ctx) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) return PyErr_NoMemory();
    sp_error err = {0};
    sp_status st = fn(out, ctx, &err);
    int closed = fclose(out);
    PyObject *text = NULL;
    if (st != SP_OK) {
        if (!err.status) err.status = st;
        sppy_raise(&err);
    } else if (closed != 0 || !buf) {
        PyErr_NoMemory();
    } else {
        text = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "replace");
    }
    free(buf);
    return text;
}

static int add_type(PyObject *m, PyTypeObject *type, const char *name) {
    if (PyType_Ready(type) < 0) return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

static int add_methods(PyObject *m, PyMethodDef *defs) {
    return PyModule_AddFunctions(m, defs);
}

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "scope_profiler._core",
    "The C core of scope_profiler: recording and analysis over libscope_profiler.",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__core(void);
PyMODINIT_FUNC PyInit__core(void) {
    import_array();
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    sppy_corrupt_error = PyErr_NewExceptionWithDoc(
        "scope_profiler.CorruptProfileError",
        "The file is not a readable profile: not HDF5, not a profile layout, a newer "
        "schema, or damaged columns. The message names the file and the problem.",
        PyExc_ValueError, NULL);
    if (!sppy_corrupt_error ||
        PyModule_AddObjectRef(m, "CorruptProfileError", sppy_corrupt_error) < 0 ||
        add_type(m, &sppy_results_type, "ProfilingResults") < 0 ||
        add_type(m, &sppy_mpi_region_type, "MPIRegion") < 0 ||
        add_type(m, &sppy_region_type, "Region") < 0 ||
        add_type(m, &sppy_scope_type, "RegionScope") < 0 ||
        add_type(m, &sppy_null_scope_type, "_NullScope") < 0 ||
        add_type(m, &sppy_profiled_type, "ProfiledFunction") < 0 ||
        add_methods(m, sppy_record_methods) < 0 || add_methods(m, sppy_analysis_methods) < 0 ||
        add_methods(m, sppy_wrapper_methods) < 0 ||
        PyModule_AddStringConstant(m, "library_version", SP_VERSION_STRING) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
