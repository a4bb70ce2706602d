/* metadata.json: sp_collect_metadata_json() and sp_write_metadata_json()
 * (docs/layout.md §7): every attribute, never clipped. */
#include <stdlib.h>

#include "common/error.h"
#include "present/json_build.h"
#include "present/json_export.h"
#include "present/py_path.h"

static int add_item(struct json_object *o, const sp_metadata_item *item) {
    switch (item->type) {
    case SP_VALUE_INT:
        return sp_json_add_int(o, item->key, item->int_value);
    case SP_VALUE_FLOAT:
        return sp_json_add_double(o, item->key, item->float_value);
    case SP_VALUE_STRING:
        return sp_json_add_string(o, item->key, item->string_value ? item->string_value : "");
    case SP_VALUE_STRING_LIST:
        return sp_json_add(o, item->key, sp_json_string_array(item->list, item->list_len));
    }
    return sp_json_add_null(o, item->key);
}

static struct json_object *file_entry(const sp_results *run) {
    const char *path = sp_results_path(run);
    char *abs = sp_py_resolve(path ? path : "");
    struct json_object *o = json_object_new_object();
    struct json_object *meta = json_object_new_object();
    int ok = abs && sp_json_add_string(o, "file_path", abs) &&
             sp_json_add_int(o, "num_ranks", (int64_t)sp_results_num_ranks(run));
    free(abs);
    size_t n = sp_results_num_metadata(run);
    for (size_t i = 0; ok && i < n; i++) {
        sp_metadata_item item;
        if (sp_results_metadata_at(run, i, &item)) ok = add_item(meta, &item);
    }
    if (!ok) json_object_put(meta);
    if (!ok || !sp_json_add(o, "metadata", meta)) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

struct json_object *sp_metadata_document(const sp_results *const *runs, size_t num_runs,
                                         sp_error *err) {
    if (num_runs && !runs) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "metadata export: no runs given");
        return NULL;
    }
    for (size_t i = 0; i < num_runs; i++)
        if (!runs[i]) {
            sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "metadata export: run %zu is NULL", i);
            return NULL;
        }
    struct json_object *doc = json_object_new_object();
    struct json_object *files = json_object_new_array();
    int ok = doc && files;
    for (size_t i = 0; ok && i < num_runs; i++)
        ok = sp_json_append(files, file_entry(runs[i]));
    if (!ok) json_object_put(files);
    if (!ok || !sp_json_add(doc, "files", files)) {
        json_object_put(doc);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "metadata export: out of memory");
        return NULL;
    }
    return doc;
}

char *sp_collect_metadata_json(const sp_results *const *runs, size_t num_runs, sp_error *err) {
    struct json_object *doc = sp_metadata_document(runs, num_runs, err);
    if (!doc) return NULL;
    char *text = sp_json_export_text(doc, err);
    json_object_put(doc);
    return text;
}

sp_status sp_write_metadata_json(const sp_results *const *runs, size_t num_runs,
                                 const char *out_path, sp_error *err) {
    if (!out_path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no output path given");
    struct json_object *doc = sp_metadata_document(runs, num_runs, err);
    if (!doc) return err && err->status ? err->status : SP_ERR_OUT_OF_MEMORY;
    return sp_json_export_write(doc, out_path, err);
}
