/* The public export API (scope_profiler/export.h): selection, size estimate, dispatch. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "export/formats.h"
#include "format/atomic_file.h"

static const char *const FORMAT_NAMES[] = {"chrome-trace", "perfetto", "speedscope", "folded",
                                           "hatchet",      "pstats",   "otf2"};
#define NUM_FORMATS (sizeof FORMAT_NAMES / sizeof *FORMAT_NAMES)

const char *sp_export_format_name(sp_export_format format) {
    return (unsigned)format < NUM_FORMATS ? FORMAT_NAMES[format] : "unknown";
}

int sp_export_format_from_name(const char *name, sp_export_format *out) {
    for (unsigned i = 0; name && i < NUM_FORMATS; i++)
        if (strcmp(name, FORMAT_NAMES[i]) == 0) {
            *out = (sp_export_format)i;
            return 1;
        }
    return 0;
}

static const sp_export_options *options_or_default(const sp_export_options *o) {
    static const sp_export_options none;
    return o ? o : &none;
}

/* Aggregate files keep call paths, not calls: only folded stacks can be
 * written from them (export/hist_calls.h). */
static int from_paths(const sp_results *r, sp_export_format format) {
    return format == SP_EXPORT_FOLDED && !sp_columnar(r);
}

/* The job's source of calls: the walker, or for from_paths() the paths. */
static sp_status open_source(sp_export_job *job, sp_export_format format) {
    if (from_paths(job->r, format)) {
        job->hists = sp_hist_calls_open(job->r, &job->options->select, job->err);
        return job->hists ? SP_OK : job->err ? job->err->status : SP_ERR_OUT_OF_MEMORY;
    }
    job->w = sp_call_walker_open(job->r, &job->options->select, job->err);
    return job->w ? SP_OK : job->err ? job->err->status : SP_ERR_OUT_OF_MEMORY;
}

static void close_source(sp_export_job *job) {
    sp_call_walker_close(job->w);
    sp_hist_calls_close(job->hists);
}

sp_status sp_export_estimate_size(const sp_results *results, sp_export_format format,
                                  const sp_export_options *options, sp_export_estimate *out,
                                  sp_error *err) {
    if (!results || !out || (unsigned)format >= NUM_FORMATS)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_estimate_size: bad argument");
    options = options_or_default(options);
    sp_export_job job = {results, NULL, options, NULL, err, NULL};
    sp_status st = open_source(&job, format);
    if (st != SP_OK) return st;
    if (job.hists) {
        /* a line per written path: a few names and a count */
        out->selected_calls = sp_hist_calls_selected(job.hists);
        out->bytes = 256 + 96 * sp_hist_calls_rows(job.hists);
    } else {
        out->selected_calls = sp_call_walker_selected(job.w);
        out->bytes = sp_estimate_bytes(format, &job);
    }
    close_source(&job);
    return SP_OK;
}

typedef sp_status (*writer_fn)(sp_export_job *job);
static const writer_fn WRITERS[] = {sp_write_chrome_trace, sp_write_perfetto, sp_write_speedscope,
                                    sp_write_folded,       sp_write_hatchet,  sp_write_pstats};

static sp_status export_to(const sp_results *results, sp_export_format format,
                           const sp_export_options *options, FILE *out, const char *what,
                           sp_error *err) {
    if (!results || !out || (unsigned)format >= NUM_FORMATS)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_write: bad argument");
    if (format == SP_EXPORT_OTF2)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "the otf2 export writes an archive directory: use sp_export_file()");
    options = options_or_default(options);
    sp_export_job job = {results, NULL, options, NULL, err, NULL};
    sp_status st = open_source(&job, format);
    if (st != SP_OK) return st;
    sp_sink sink;
    st = sp_sink_open(&sink, out, options->gzip, err);
    if (st == SP_OK) {
        job.sink = &sink;
        st = WRITERS[format](&job);
        sp_error close_err = {0};
        sp_status closed = sp_sink_close(&sink, what, &close_err);
        if (st == SP_OK && closed != SP_OK) {
            st = closed;
            if (err) *err = close_err;
        }
    }
    close_source(&job);
    return st;
}

/* OTF2: the walker and the archive directory, no sink. */
static sp_status export_archive(const sp_results *results, const sp_export_options *options,
                                const char *dir, sp_error *err) {
    if (!results) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_file: bad argument");
    options = options_or_default(options);
    sp_call_walker *w = sp_call_walker_open(results, &options->select, err);
    if (!w) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_export_job job = {results, w, options, NULL, err, NULL};
    sp_status st = sp_write_otf2(&job, dir);
    sp_call_walker_close(w);
    return st;
}

sp_status sp_export_write(const sp_results *results, sp_export_format format,
                          const sp_export_options *options, FILE *out, sp_error *err) {
    return export_to(results, format, options, out, "the export output", err);
}

sp_status sp_export_file(const sp_results *results, sp_export_format format,
                         const sp_export_options *options, const char *path, sp_error *err) {
    if (!path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_file: no path");
    if (format == SP_EXPORT_OTF2) return export_archive(results, options, path, err);
    char *tmp = sp_atomic_begin(path, err);
    if (!tmp) return err ? err->status : SP_ERR_IO;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        sp_status st = sp_error_set(err, sp_status_from_errno(errno), "cannot write %s: %s", path,
                                    strerror(errno));
        sp_atomic_abort(tmp);
        free(tmp);
        return st;
    }
    sp_status st = export_to(results, format, options, f, path, err);
    if (fclose(f) != 0 && st == SP_OK)
        st = sp_error_set(err, sp_status_from_errno(errno), "cannot write %s: %s", path,
                          strerror(errno));
    if (st == SP_OK)
        st = sp_atomic_commit(tmp, path, err);
    else
        sp_atomic_abort(tmp);
    free(tmp);
    return st;
}
