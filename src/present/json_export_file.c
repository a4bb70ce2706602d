#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "present/json_export.h"
#include "present/json_print.h"
#include "present/text_file.h"

char *sp_json_export_text(struct json_object *doc, sp_error *err) {
    char *text = sp_json_document(doc);
    if (!text)
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot format the JSON export: out of memory");
    return text;
}

sp_status sp_json_export_write(struct json_object *doc, const char *path, sp_error *err) {
    char *text = sp_json_export_text(doc, err);
    json_object_put(doc);
    if (!text) return SP_ERR_OUT_OF_MEMORY;
    sp_status st = sp_write_text_file(path, text, strlen(text), err);
    free(text);
    return st;
}
