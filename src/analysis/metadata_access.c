/* The run's metadata as ordered key/value items. */
#include <string.h>

#include "analysis/internal.h"

static void fill_item(const sp_meta_entry *e, sp_metadata_item *out) {
    memset(out, 0, sizeof *out);
    out->key = e->key;
    switch (e->type) {
    case SP_META_INT:
        out->type = SP_VALUE_INT;
        out->int_value = e->i;
        break;
    case SP_META_FLOAT:
        out->type = SP_VALUE_FLOAT;
        out->float_value = e->f;
        break;
    case SP_META_STRING:
        out->type = SP_VALUE_STRING;
        out->string_value = e->s ? e->s : "";
        break;
    case SP_META_STRING_LIST:
        out->type = SP_VALUE_STRING_LIST;
        out->list = (const char *const *)e->list;
        out->list_len = e->list_len;
        break;
    }
}

size_t sp_results_num_metadata(const sp_results *r) {
    return r->m.num_meta;
}

int sp_results_metadata_at(const sp_results *r, size_t index, sp_metadata_item *out) {
    if (index >= r->m.num_meta) return 0;
    fill_item(&r->m.meta[index], out);
    return 1;
}

int sp_results_metadata_find(const sp_results *r, const char *key, sp_metadata_item *out) {
    const sp_meta_entry *e = key ? sp_model_meta_find(&r->m, key) : NULL;
    if (!e) return 0;
    fill_item(e, out);
    return 1;
}
