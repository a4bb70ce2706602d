/*
 * The scope_profiler._core extension: the Python package's API over
 * libscope_profiler (docs/python.md). One header for the module's files.
 */
#ifndef SP_PY_H
#define SP_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <scope_profiler.h>
#include <scope_profiler/results.h>

/* scope_profiler.CorruptProfileError (a ValueError). */
extern PyObject *sppy_corrupt_error;

/* ProfilingResults: owns one sp_results. */
typedef struct sppy_results {
    PyObject_HEAD sp_results *results;
    PyObject *path; /* str, as given to read_h5 (or the output path) */
} sppy_results;

/* MPIRegion and Region: borrowed C objects kept alive by a reference to their results. */
typedef struct sppy_mpi_region {
    PyObject_HEAD sppy_results *owner;
    const sp_mpi_region *region;
} sppy_mpi_region;

typedef struct sppy_region {
    PyObject_HEAD sppy_results *owner;
    const sp_rank_region *region;
    PyObject *durations, *start_times, *end_times; /* read-only arrays, made on first use */
} sppy_region;

extern PyTypeObject sppy_results_type, sppy_mpi_region_type, sppy_region_type;
extern PyTypeObject sppy_scope_type, sppy_null_scope_type, sppy_profiled_type;

/* Raises the Python exception for err (FileNotFoundError, CorruptProfileError,
 * KeyError, ...); always returns NULL. */
PyObject *sppy_raise(const sp_error *err);
/* The same for a bare status, with a message of the caller's. */
PyObject *sppy_raise_status(sp_status status, const char *message);

/* Wraps r (taking ownership) as a ProfilingResults read from path. */
PyObject *sppy_results_wrap(sp_results *r, PyObject *path);
PyObject *sppy_mpi_region_new(sppy_results *owner, const sp_mpi_region *region);
PyObject *sppy_region_new(sppy_results *owner, const sp_rank_region *region);

/* A float, or None for NaN (a value the file cannot give). */
PyObject *sppy_float_or_none(double v);
/* The get_summary() dict of s. */
PyObject *sppy_summary_dict(const sp_summary *s);
/* A dict from parsing JSON text (json.loads); frees nothing. */
PyObject *sppy_json_loads(const char *text);

/* include= / exclude= / ranks= arguments as an sp_filter. */
typedef struct sppy_filter {
    sp_filter filter;
    PyObject *keep; /* list of the bytes objects the patterns point into */
    const char **include, **exclude;
    uint32_t *ranks;
} sppy_filter;

/* Fills out from the arguments (each may be NULL or None; a str or a sequence
 * of str; ranks an int or a sequence of int). -1 with TypeError naming the
 * argument. */
int sppy_filter_parse(PyObject *include, PyObject *exclude, PyObject *ranks, sppy_filter *out);
void sppy_filter_clear(sppy_filter *f);

/* Runs from an argument that is a ProfilingResults, a path, or a sequence of
 * them: paths are read (and released by sppy_runs_clear). -1 with an exception. */
typedef struct sppy_runs {
    size_t count;
    const sp_results **runs;
    PyObject *holders; /* list of the ProfilingResults objects behind runs */
} sppy_runs;
int sppy_runs_parse(PyObject *arg, const char *argname, sppy_runs *out);
void sppy_runs_clear(sppy_runs *runs);

/* *out = the UTF-8 text of o (unchanged when o is NULL, or None with allow_none);
 * -1 with a TypeError naming func's argument name. */
int sppy_str_arg(PyObject *o, const char *func, const char *name, int allow_none, const char **out);

/* Reads a profile with the GIL released; NULL with an exception. */
PyObject *sppy_read_path(PyObject *path);

/* Captures what fn writes to a FILE* and returns it as str; NULL with an exception
 * (from fn's status and err, or MemoryError). */
typedef sp_status (*sppy_writer)(FILE *out, void *ctx, sp_error *err);
PyObject *sppy_capture(sppy_writer fn, void *ctx);

/* Module function tables of the files. */
extern PyMethodDef sppy_record_methods[];
extern PyMethodDef sppy_analysis_methods[];
extern PyMethodDef sppy_wrapper_methods[];

#endif
