/*
 * Recording: setup(), region() scopes, profiled functions, finalize().
 * A region scope is one object per name, cached, so `with region("x")`
 * costs a dict lookup and the two inline recording calls.
 */
#include "sp_py.h"

#include <stdio.h>
#include <string.h>
#include <structmember.h>

/* --- RegionScope: the context manager of one region --------------------- */

typedef struct sppy_scope {
    PyObject_HEAD sp_region_t handle;
    PyObject *name;
} sppy_scope;

static PyObject *scope_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    sp_begin(((sppy_scope *)self)->handle);
    Py_INCREF(self);
    return self;
}

static PyObject *scope_exit(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)args;
    (void)nargs;
    sp_end_at(((sppy_scope *)self)->handle, "<python>", 0);
    Py_RETURN_FALSE;
}

static void scope_dealloc(PyObject *self) {
    Py_XDECREF(((sppy_scope *)self)->name);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *scope_repr(PyObject *self) {
    return PyUnicode_FromFormat("<RegionScope %R>", ((sppy_scope *)self)->name);
}

static PyMethodDef scope_methods[] = {
    {"__enter__", scope_enter, METH_NOARGS, "Starts a call of the region on this thread."},
    {"__exit__", (PyCFunction)(void (*)(void))scope_exit, METH_FASTCALL,
     "Ends the call (exceptions pass through)."},
    {NULL, NULL, 0, NULL}};

static PyMemberDef scope_members[] = {
    {"name", T_OBJECT, offsetof(sppy_scope, name), READONLY, "The region's name."},
    {NULL, 0, 0, 0, NULL}};

PyTypeObject sppy_scope_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler.RegionScope",
    .tp_basicsize = sizeof(sppy_scope),
    .tp_dealloc = scope_dealloc,
    .tp_repr = scope_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "with ProfileManager.region(name): times the block as one call of the region.",
    .tp_methods = scope_methods,
    .tp_members = scope_members,
};

/* The benchmark's floor: the same object shape and calls, recording nothing. */
static PyObject *null_enter(PyObject *self, PyObject *unused) {
    (void)unused;
    Py_INCREF(self);
    return self;
}

static PyObject *null_exit(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    (void)args;
    (void)nargs;
    Py_RETURN_FALSE;
}

static PyMethodDef null_methods[] = {
    {"__enter__", null_enter, METH_NOARGS, "Does nothing."},
    {"__exit__", (PyCFunction)(void (*)(void))null_exit, METH_FASTCALL, "Does nothing."},
    {NULL, NULL, 0, NULL}};

PyTypeObject sppy_null_scope_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler._NullScope",
    .tp_basicsize = sizeof(sppy_scope),
    .tp_dealloc = scope_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An empty C-level context manager (bench/bench_python_region.py's floor).",
    .tp_methods = null_methods,
};

static PyObject *scope_cache, *null_cache; /* name -> scope */

/* The caller's file and line, for the region's source location (first use only). */
static sp_region_t intern_here(const char *name) {
    PyFrameObject *frame = PyEval_GetFrame();
    if (!frame) return sp_region_at(name, NULL, 0);
    PyCodeObject *code = PyFrame_GetCode(frame);
    const char *file = code ? PyUnicode_AsUTF8(code->co_filename) : NULL;
    if (!file) PyErr_Clear();
    sp_region_t h = sp_region_at(name, file, PyFrame_GetLineNumber(frame));
    Py_XDECREF(code);
    return h;
}

static PyObject *cached_scope(PyObject **cache, PyTypeObject *type, PyObject *name,
                              const char *what) {
    if (!PyUnicode_Check(name))
        return PyErr_Format(PyExc_TypeError, "%s: name must be str, not %.100s", what,
                            Py_TYPE(name)->tp_name);
    PyObject *hit = *cache ? PyDict_GetItemWithError(*cache, name) : NULL;
    if (hit) {
        Py_INCREF(hit);
        return hit;
    }
    if (PyErr_Occurred()) return NULL;
    if (!*cache && !(*cache = PyDict_New())) return NULL;
    const char *utf8 = PyUnicode_AsUTF8(name);
    if (!utf8) return NULL;
    sp_region_t h = intern_here(utf8);
    if (h == SP_REGION_NONE) return PyErr_NoMemory();
    sppy_scope *s = PyObject_New(sppy_scope, type);
    if (!s) return NULL;
    s->handle = h;
    s->name = Py_NewRef(name);
    if (PyDict_SetItem(*cache, name, (PyObject *)s) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    return (PyObject *)s;
}

static PyObject *py_region(PyObject *module, PyObject *name) {
    (void)module;
    return cached_scope(&scope_cache, &sppy_scope_type, name, "ProfileManager.region()");
}

static PyObject *py_null_region(PyObject *module, PyObject *name) {
    (void)module;
    return cached_scope(&null_cache, &sppy_null_scope_type, name, "_null_region()");
}

/* --- ProfiledFunction: a decorated function ----------------------------- */

typedef struct sppy_profiled {
    PyObject_HEAD PyObject *func;
    sp_region_t handle;
    vectorcallfunc vectorcall;
    PyObject *dict;
} sppy_profiled;

static PyObject *profiled_call(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    sppy_profiled *p = (sppy_profiled *)self;
    sp_begin(p->handle);
    PyObject *out = PyObject_Vectorcall(p->func, args, nargsf, kwnames);
    sp_end_at(p->handle, "<python>", 0);
    return out;
}

static PyObject *profiled_get(PyObject *self, PyObject *obj, PyObject *type) {
    (void)type;
    if (!obj || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static int profiled_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((sppy_profiled *)self)->func);
    Py_VISIT(((sppy_profiled *)self)->dict);
    return 0;
}

static int profiled_clear(PyObject *self) {
    Py_CLEAR(((sppy_profiled *)self)->func);
    Py_CLEAR(((sppy_profiled *)self)->dict);
    return 0;
}

static void profiled_dealloc(PyObject *self) {
    PyObject_GC_UnTrack(self);
    profiled_clear(self);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *profiled_repr(PyObject *self) {
    return PyUnicode_FromFormat("<profiled %R as %s>", ((sppy_profiled *)self)->func,
                                sp_region_name(((sppy_profiled *)self)->handle));
}

static PyObject *profiled_region_name(PyObject *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(sp_region_name(((sppy_profiled *)self)->handle));
}

static PyGetSetDef profiled_getset_all[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"region_name", profiled_region_name, NULL, "The region each call records into.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sppy_profiled_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scope_profiler.ProfiledFunction",
    .tp_basicsize = sizeof(sppy_profiled),
    .tp_dealloc = profiled_dealloc,
    .tp_vectorcall_offset = offsetof(sppy_profiled, vectorcall),
    .tp_repr = profiled_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A function whose every call is recorded as one call of its region.",
    .tp_traverse = profiled_traverse,
    .tp_clear = profiled_clear,
    .tp_getset = profiled_getset_all,
    .tp_descr_get = profiled_get,
    .tp_dictoffset = offsetof(sppy_profiled, dict),
};

static PyObject *py_profiled(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "profiled() takes func and name");
    PyObject *func = args[0], *name = args[1];
    if (!PyCallable_Check(func))
        return PyErr_Format(PyExc_TypeError,
                            "ProfileManager.profile(): func must be callable, not %.100s",
                            Py_TYPE(func)->tp_name);
    if (!PyUnicode_Check(name))
        return PyErr_Format(PyExc_TypeError,
                            "ProfileManager.profile(): name must be str, not %.100s",
                            Py_TYPE(name)->tp_name);
    const char *utf8 = PyUnicode_AsUTF8(name);
    if (!utf8) return NULL;
    sp_region_t h = intern_here(utf8);
    if (h == SP_REGION_NONE) return PyErr_NoMemory();
    sppy_profiled *p = PyObject_GC_New(sppy_profiled, &sppy_profiled_type);
    if (!p) return NULL;
    p->func = Py_NewRef(func);
    p->handle = h;
    p->vectorcall = profiled_call;
    p->dict = NULL;
    PyObject_GC_Track(p);
    PyObject *functools = PyImport_ImportModule("functools");
    PyObject *done =
        functools ? PyObject_CallMethod(functools, "update_wrapper", "OO", p, func) : NULL;
    Py_XDECREF(functools);
    if (!done) {
        Py_DECREF(p);
        return NULL;
    }
    Py_DECREF(done);
    return (PyObject *)p;
}

/* --- setup() and finalize() --------------------------------------------- */

static int parse_compression(const char *text, sp_options *o) {
    if (!text || !strcmp(text, "none"))
        o->compression = text ? SP_COMPRESSION_NONE : SP_COMPRESSION_AUTO;
    else if (!strcmp(text, "auto"))
        o->compression = SP_COMPRESSION_AUTO;
    else if (!strcmp(text, "gzip"))
        o->compression = SP_COMPRESSION_GZIP;
    else {
        PyErr_Format(PyExc_ValueError,
                     "setup(): hdf5_compression %R is not one of None, 'auto', 'gzip', 'none' "
                     "(the C core has no lzf or zstd writer)",
                     PyUnicode_FromString(text));
        return -1;
    }
    return 0;
}

static int parse_clock(const char *text, sp_options *o) {
    if (!text || !strcmp(text, "auto"))
        o->clock = SP_CLOCK_AUTO;
    else if (!strcmp(text, "tsc"))
        o->clock = SP_CLOCK_TSC;
    else if (!strcmp(text, "monotonic"))
        o->clock = SP_CLOCK_MONOTONIC;
    else {
        PyErr_Format(PyExc_ValueError, "setup(): clock '%s' is not 'auto', 'tsc' or 'monotonic'",
                     text);
        return -1;
    }
    return 0;
}

/* "3.11.2" from Py_GetVersion()'s "3.11.2 (main, ...)". */
static void note_python_version(void) {
    char version[32];
    snprintf(version, sizeof version, "%s", Py_GetVersion());
    version[strcspn(version, " ")] = '\0';
    sp_set_metadata_string("python_version", version);
    sp_set_source_language("python");
}

static PyObject *py_setup(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *keywords[] = {"file_path",
                               "label",
                               "metadata_detail",
                               "capture_region_source",
                               "deactivate_profiling",
                               "aggregation_mode",
                               "hdf5_compression",
                               "hdf5_compression_level",
                               "memory_limit",
                               "journal",
                               "clock",
                               "buffer_limit",
                               "track_threads",
                               "session_root",
                               NULL};
    PyObject *path = NULL, *level = Py_None, *journal = Py_None, *buffer_limit = Py_None;
    PyObject *label_o = NULL, *detail_o = NULL, *compression_o = NULL, *clock_o = NULL;
    const char *label = NULL, *detail = "minimal", *compression = NULL, *clock = NULL;
    int capture = 0, deactivate = 0, aggregate = 0, track_threads = 1, session_root = 0;
    unsigned long long memory_limit = 0;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "|$O&OOpppOOKOOOpp:setup", keywords, PyUnicode_FSConverter, &path,
            &label_o, &detail_o, &capture, &deactivate, &aggregate, &compression_o, &level,
            &memory_limit, &journal, &clock_o, &buffer_limit, &track_threads, &session_root))
        return NULL;
    if (sppy_str_arg(label_o, "setup", "label", 1, &label) < 0 ||
        sppy_str_arg(detail_o, "setup", "metadata_detail", 0, &detail) < 0 ||
        sppy_str_arg(compression_o, "setup", "hdf5_compression", 1, &compression) < 0 ||
        sppy_str_arg(clock_o, "setup", "clock", 1, &clock) < 0) {
        Py_XDECREF(path);
        return NULL;
    }
    PyObject *out = NULL;
    sp_options o = SP_OPTIONS_INIT;
    o.file_path = path ? PyBytes_AS_STRING(path) : "profiling_data.h5";
    o.label = label;
    o.capture_region_source = capture;
    o.disable = deactivate;
    o.aggregate = aggregate;
    o.memory_limit = memory_limit;
    o.no_session_root = !session_root;
    if (!strcmp(detail, "minimal"))
        o.metadata_detail = SP_METADATA_MINIMAL;
    else if (!strcmp(detail, "full"))
        o.metadata_detail = SP_METADATA_FULL;
    else {
        PyErr_Format(PyExc_ValueError, "setup(): metadata_detail '%s' is not 'minimal' or 'full'",
                     detail);
        goto done;
    }
    if (parse_compression(compression, &o) < 0 || parse_clock(clock, &o) < 0) goto done;
    if (level != Py_None) {
        if (!PyLong_Check(level)) {
            PyErr_Format(
                PyExc_TypeError,
                "setup() argument 'hdf5_compression_level' must be int or None, not %.100s",
                Py_TYPE(level)->tp_name);
            goto done;
        }
        long v = PyLong_AsLong(level);
        if (v < 0 || v > 9) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError,
                             "setup(): hdf5_compression_level %ld is not a gzip level 0-9", v);
            goto done;
        }
        o.compression_level = (int)v;
        if (!compression) o.compression = SP_COMPRESSION_GZIP;
    }
    if (journal != Py_None) {
        int on = PyObject_IsTrue(journal);
        if (on < 0) goto done;
        o.journal = on ? SP_JOURNAL_ON : SP_JOURNAL_OFF;
    }
    if (buffer_limit != Py_None && !PyLong_Check(buffer_limit)) {
        PyErr_Format(PyExc_TypeError,
                     "setup() argument 'buffer_limit' must be int or None, not %.100s",
                     Py_TYPE(buffer_limit)->tp_name);
        goto done;
    }
    note_python_version();
    sp_status st = sp_setup(&o);
    if (st == SP_ERR_ALREADY_ACTIVE) {
        PyErr_SetString(PyExc_RuntimeError,
                        "ProfileManager.setup(): a profiling session is already active; call "
                        "ProfileManager.finalize() first");
    } else if (st != SP_OK) {
        char message[1200];
        snprintf(message, sizeof message, "ProfileManager.setup(): %s: %s", o.file_path,
                 sp_status_string(st));
        sppy_raise_status(st, message);
    } else {
        out = Py_NewRef(Py_None);
    }
done:
    Py_XDECREF(path);
    return out;
}

/* Writes the finalize summary to sys.stdout, so redirection and notebooks see it. */
static int print_to_stdout(const char *text, size_t len) {
    if (!len) return 0;
    PyObject *out = PySys_GetObject("stdout");
    if (!out || out == Py_None) return 0;
    PyObject *str = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    if (!str) return -1;
    int rc = PyFile_WriteObject(str, out, Py_PRINT_RAW);
    Py_DECREF(str);
    return rc;
}

static PyObject *py_finalize(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *keywords[] = {"verbose", "return_results", NULL};
    int verbose = 1, want_results = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pp:finalize", keywords, &verbose,
                                     &want_results))
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return PyErr_NoMemory();
    sp_results *r = NULL;
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = !verbose;
    fo.stream = mem;
    fo.results = want_results ? &r : NULL;
    sp_status st;
    Py_BEGIN_ALLOW_THREADS st = sp_finalize(&fo);
    Py_END_ALLOW_THREADS fclose(mem);
    int printed = print_to_stdout(buf ? buf : "", buf ? len : 0);
    free(buf);
    const char *path = sp_output_path();
    if (st == SP_ERR_NOT_ACTIVE) {
        sp_results_free(r);
        PyErr_SetString(PyExc_RuntimeError,
                        "ProfileManager.finalize(): no active profiling session (it was "
                        "already finalized, or ProfileManager.setup() was never called)");
        return NULL;
    }
    if (st != SP_OK) {
        sp_results_free(r);
        char message[1200];
        snprintf(message, sizeof message, "ProfileManager.finalize(): could not write %s: %s",
                 path ? path : "the profile", sp_status_string(st));
        return sppy_raise_status(st, message);
    }
    if (printed < 0) {
        sp_results_free(r);
        return NULL;
    }
    if (!r) Py_RETURN_NONE;
    PyObject *p = PyUnicode_DecodeFSDefault(path ? path : sp_results_path(r));
    if (!p) {
        sp_results_free(r);
        return NULL;
    }
    PyObject *wrapped = sppy_results_wrap(r, p);
    Py_DECREF(p);
    return wrapped;
}

/* set_metadata(key, value): str, int or float into /metadata (docs/metadata.md). */
static PyObject *py_set_metadata(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "set_metadata(key, value) takes exactly two arguments");
        return NULL;
    }
    const char *key = PyUnicode_Check(args[0]) ? PyUnicode_AsUTF8(args[0]) : NULL;
    if (!key) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "set_metadata(): key must be str");
        return NULL;
    }
    PyObject *v = args[1];
    sp_status st;
    if (PyBool_Check(v) || !(PyUnicode_Check(v) || PyLong_Check(v) || PyFloat_Check(v))) {
        PyErr_Format(PyExc_TypeError,
                     "set_metadata(): the value of \"%s\" must be str, int or float, not %s", key,
                     Py_TYPE(v)->tp_name);
        return NULL;
    }
    if (PyUnicode_Check(v)) {
        const char *text = PyUnicode_AsUTF8(v);
        if (!text) return NULL;
        st = sp_set_metadata_string(key, text);
    } else if (PyLong_Check(v)) {
        int overflow = 0;
        long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_OverflowError,
                         "set_metadata(): the value of \"%s\" does not fit in int64", key);
            return NULL;
        }
        if (i == -1 && PyErr_Occurred()) return NULL;
        st = sp_set_metadata_int(key, (int64_t)i);
    } else {
        st = sp_set_metadata_double(key, PyFloat_AsDouble(v));
    }
    if (st == SP_ERR_INVALID_ARGUMENT) {
        PyErr_Format(PyExc_ValueError,
                     "set_metadata(): cannot store \"%s\": a key is 1 to 64 letters, digits, "
                     "'_', '.' or '-' starting with a letter or '_', not a built-in field "
                     "(mpi_size, label, ...), and a float must be finite",
                     key);
        return NULL;
    }
    if (st) return sppy_raise_status(st, sp_status_string(st));
    Py_RETURN_NONE;
}

/* add_tag(region_name, tag): the region's tags list (sp_region_add_tag). */
static PyObject *py_add_tag(PyObject *module, PyObject *args) {
    (void)module;
    const char *name, *tag;
    if (!PyArg_ParseTuple(args, "ss:add_tag", &name, &tag)) return NULL;
    if (!*tag) {
        PyErr_SetString(PyExc_ValueError, "add_tag(): the tag is empty");
        return NULL;
    }
    sp_region_t region = sp_region_at(name, NULL, 0);
    sp_status st = region ? sp_region_add_tag(region, tag) : SP_ERR_OUT_OF_MEMORY;
    if (st) return sppy_raise_status(st, sp_status_string(st));
    Py_RETURN_NONE;
}

static PyObject *py_is_active(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return PyBool_FromLong(sp_is_active());
}

PyMethodDef sppy_record_methods[] = {
    {"setup", (PyCFunction)(void (*)(void))py_setup, METH_VARARGS | METH_KEYWORDS,
     "setup(*, file_path='profiling_data.h5', label=None, metadata_detail='minimal', ...): "
     "starts the profiling session."},
    {"region", py_region, METH_O, "region(name): the context manager timing one region."},
    {"_null_region", py_null_region, METH_O,
     "_null_region(name): an empty context manager of the same shape (benchmark floor)."},
    {"profiled", (PyCFunction)(void (*)(void))py_profiled, METH_FASTCALL,
     "profiled(func, name): func wrapped so that each call is recorded under name."},
    {"finalize", (PyCFunction)(void (*)(void))py_finalize, METH_VARARGS | METH_KEYWORDS,
     "finalize(verbose=True, return_results=False): writes the profile."},
    {"is_active", py_is_active, METH_NOARGS, "is_active(): True while a session records."},
    {"set_metadata", (PyCFunction)(void (*)(void))py_set_metadata, METH_FASTCALL,
     "set_metadata(key, value): stores a str, int or float in the run's /metadata."},
    {"add_tag", py_add_tag, METH_VARARGS, "add_tag(region_name, tag): tags a region."},
    {NULL, NULL, 0, NULL}};
