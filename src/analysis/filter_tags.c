/* The tag condition of a filter: a row's tags are a JSON list of strings. */
#include <json-c/json.h>
#include <string.h>

#include "analysis/filter.h"

/* 1 when the JSON list holds one of the wanted tags. */
static int has_tag(const char *json, const char *const *wanted, size_t n) {
    if (!json || !strchr(json, '"')) return 0;
    struct json_object *list = json_tokener_parse(json);
    int found = 0;
    if (list && json_object_is_type(list, json_type_array)) {
        size_t len = json_object_array_length(list);
        for (size_t i = 0; i < len && !found; i++) {
            const char *tag = json_object_get_string(json_object_array_get_idx(list, i));
            for (size_t k = 0; tag && k < n && !found; k++)
                found = !strcmp(tag, wanted[k]);
        }
    }
    json_object_put(list);
    return found;
}

int sp_filter_keeps_region(sp_compiled_filter *f, const sp_results *r, uint32_t g) {
    int keep = sp_filter_keeps(f, r->m.region_names[g]);
    size_t n;
    const char *const *tags = sp_filter_tags(f, &n);
    if (keep <= 0 || !n) return keep;
    const sp_mpi_region *reg = &r->regions[g];
    for (size_t i = 0; i < reg->num_entries; i++)
        if (has_tag(r->m.rows[reg->entries[i]].tags, tags, n)) return 1;
    return 0;
}
