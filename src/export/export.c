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

sp_status sp_export_estimate_size(const sp_results *results, sp_export_format format,
                                  const sp_export_options *options, sp_export_estimate *out,
                                  sp_error *err) {
    if (!results || !out || (unsigned)format >= NUM_FORMATS)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_estimate_size: bad argument");
    options = options_or_default(options);
    sp_call_walker *w = sp_call_walker_open(results, &options->select, err);
    if (!w) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_export_job job = {results, w, options, NULL, err};
    out->selected_calls = sp_call_walker_selected(w);
    out->bytes = sp_estimate_bytes(format, &job);
    sp_call_walker_close(w);
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
    sp_call_walker *w = sp_call_walker_open(results, &options->select, err);
    if (!w) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_sink sink;
    sp_status st = sp_sink_open(&sink, out, options->gzip, err);
    if (st == SP_OK) {
        sp_export_job job = {results, w, options, &sink, err};
        st = WRITERS[format](&job);
        sp_error close_err = {0};
        sp_status closed = sp_sink_close(&sink, what, &close_err);
        if (st == SP_OK && closed != SP_OK) {
            st = closed;
            if (err) *err = close_err;
        }
    }
    sp_call_walker_close(w);
    return st;
}

/* OTF2: the walker and the archive directory, no sink. */
static sp_status export_archive(const sp_results *results, const sp_export_options *options,
                                const char *dir, sp_error *err) {
    if (!results) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_export_file: bad argument");
    options = options_or_default(options);
    sp_call_walker *w = sp_call_walker_open(results, &options->select, err);
    if (!w) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_export_job job = {results, w, options, NULL, err};
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
