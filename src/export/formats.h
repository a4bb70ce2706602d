/* The writers behind sp_export_write() (one file each), private to src/export/. */
#ifndef SP_EXPORT_FORMATS_H
#define SP_EXPORT_FORMATS_H

#include "export/call_walk.h"
#include "export/hist_calls.h"
#include "export/sink.h"

#define SP_EXPORTER "scope-profiler-c@" SP_VERSION_STRING

typedef struct sp_export_job {
    const sp_results *r;
    sp_call_walker *w;
    const sp_export_options *options;
    sp_sink *sink;
    sp_error *err;
    sp_hist_calls *hists; /* aggregate files (folded only): the call paths instead of w */
} sp_export_job;

sp_status sp_write_chrome_trace(sp_export_job *job);
sp_status sp_write_perfetto(sp_export_job *job);
sp_status sp_write_speedscope(sp_export_job *job);
sp_status sp_write_folded(sp_export_job *job);
sp_status sp_write_hatchet(sp_export_job *job);
sp_status sp_write_pstats(sp_export_job *job);
/* The OTF2 archive is a directory of its own files: written at dir, no sink. */
sp_status sp_write_otf2(sp_export_job *job, const char *dir);
/* The folded output's exact size (the paths are built, nothing is written;
 * 0 when that fails). */
uint64_t sp_folded_bytes(const sp_export_job *job);

/* The expected output size of the job's format for the walker's selection. */
uint64_t sp_estimate_bytes(sp_export_format format, const sp_export_job *job);

/* Writes a JSON literal of s (NULL: "") to the sink; returns 0 when out of memory. */
int sp_sink_json_string(sp_sink *s, const char *text);
/* Writes a metadata value as JSON (a non-finite float as null); clears *ok when out of memory. */
void sp_sink_json_meta_value(sp_sink *s, const sp_metadata_item *it, int *ok);

#endif
