/*
 * The JSON exports (docs/layout.md §7): their documents
 * as json-c trees, and the writer that prints and stores them.
 */
#ifndef SP_PRESENT_JSON_EXPORT_H
#define SP_PRESENT_JSON_EXPORT_H

#include <json-c/json.h>

#include "scope_profiler/results.h"


/* {"files": [{file_path, num_ranks, metadata}, ...]}. */
struct json_object *sp_metadata_document(const sp_results *const *runs, size_t num_runs,
                                         sp_error *err);

/* Prints doc (Python's json.dump layout plus a newline) into a new string. */
char *sp_json_export_text(struct json_object *doc, sp_error *err);

/* Prints doc and writes it to path (text_file.h); takes ownership of doc. */
sp_status sp_json_export_write(struct json_object *doc, const char *path, sp_error *err);

#endif
