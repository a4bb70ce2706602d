/* sp_write_summary_json(): to_dataframe() rows as a JSON list of objects. */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "present/json_build.h"
#include "present/json_print.h"
#include "present/summary_fields.h"
#include "present/summary_out.h"

/* The tags as a JSON list (they are stored as JSON text); the text itself
 * as a string if it does not parse as a list. */
static int add_tags(struct json_object *obj, const char *tags) {
    if (!tags) tags = "[]";
    struct json_object *list = json_tokener_parse(tags);
    if (list && json_object_is_type(list, json_type_array)) return sp_json_add(obj, "tags", list);
    json_object_put(list);
    return sp_json_add_string(obj, "tags", tags);
}

static struct json_object *row_object(const sp_summary_row *row, const sp_summary_field *fields,
                                      size_t nf) {
    struct json_object *obj = json_object_new_object();
    int ok = obj != NULL;
    for (size_t j = 0; j < nf && ok; j++) {
        const sp_summary_field *f = &fields[j];
        switch (f->kind) {
        case SP_FIELD_NAME:
            ok = sp_json_add_string(obj, f->key, *SP_FIELD_PTR(row, f, char *));
            break;
        case SP_FIELD_TAGS:
            ok = add_tags(obj, *SP_FIELD_PTR(row, f, char *));
            break;
        case SP_FIELD_RANK:
            ok = sp_json_add_int(obj, f->key, *SP_FIELD_PTR(row, f, int64_t));
            break;
        case SP_FIELD_COUNT:
            ok = sp_json_add_int(obj, f->key, (int64_t)*SP_FIELD_PTR(row, f, uint64_t));
            break;
        case SP_FIELD_DOUBLE: {
            double v = *SP_FIELD_PTR(row, f, double);
            ok = isnan(v) ? sp_json_add_null(obj, f->key) : sp_json_add_double(obj, f->key, v);
            break;
        }
        }
    }
    /* percentiles from an aggregate file's histograms carry their error bound */
    if (ok && row->has_percentiles && row->percentile_error > 0.0)
        ok = sp_json_add_double(obj, "percentile_relative_error", row->percentile_error);
    if (!ok) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

sp_status sp_summary_rows_json(sp_textbuf *out, const sp_summary_rows *rows, int per_rank) {
    size_t nf;
    const sp_summary_field *fields = sp_summary_fields(per_rank, &nf);
    struct json_object *list = json_object_new_array_ext((int)(rows->count ? rows->count : 1));
    int ok = list != NULL;
    for (size_t i = 0; i < rows->count && ok; i++)
        ok = sp_json_append(list, row_object(&rows->rows[i], fields, nf));
    if (ok) {
        sp_json_print(out, list, 0);
        sp_textbuf_putc(out, '\n');
    }
    json_object_put(list);
    return ok && !sp_textbuf_failed(out) ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_status sp_write_summary_json(const sp_results *results, FILE *out, const sp_filter *filter,
                                int per_rank, sp_error *err) {
    return sp_summary_write(results, out, filter, per_rank, sp_summary_rows_json, "JSON", err);
}
