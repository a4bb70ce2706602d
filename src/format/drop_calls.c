#include "format/drop_calls.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* A dropped call that had an id: kept calls under it move to its parent. */
typedef struct dropped_id {
    uint32_t rank;
    int64_t id;
    int64_t parent;
} dropped_id;

static int compare_dropped(const void *pa, const void *pb) {
    const dropped_id *a = pa, *b = pb;
    if (a->rank != b->rank) return (a->rank > b->rank) - (a->rank < b->rank);
    return (a->id > b->id) - (a->id < b->id);
}

static const dropped_id *find_dropped(const dropped_id *d, size_t n, uint32_t rank, int64_t id) {
    dropped_id key = {rank, id, -1};
    return bsearch(&key, d, n, sizeof *d, compare_dropped);
}

/* The dropped calls' ids, sorted; *n 0 when the file has no call ids. */
static dropped_id *collect_dropped_ids(const sp_model *m, const uint8_t *drop, size_t *n) {
    *n = 0;
    if (!m->call_ids || !m->parent_ids) return NULL;
    size_t count = 0;
    for (size_t i = 0; i < m->num_events; i++)
        count += drop[i] != 0;
    dropped_id *d = malloc((count ? count : 1) * sizeof *d);
    if (!d) return NULL;
    for (size_t r = 0; r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        for (uint64_t k = row->offset; k < row->offset + row->count; k++)
            if (drop[k]) d[(*n)++] = (dropped_id){row->rank, m->call_ids[k], m->parent_ids[k]};
    }
    qsort(d, *n, sizeof *d, compare_dropped);
    return d;
}

/* Kept calls under a dropped one hang under its nearest kept ancestor; the
 * walk is bounded, since ids in a damaged file may form a cycle. */
static void reparent(sp_model *m, const uint8_t *drop, const dropped_id *d, size_t n) {
    for (size_t r = 0; n && r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        for (uint64_t k = row->offset; k < row->offset + row->count; k++) {
            if (drop[k]) continue;
            int64_t parent = m->parent_ids[k];
            const dropped_id *up;
            for (size_t steps = 0; steps <= n && (up = find_dropped(d, n, row->rank, parent));
                 steps++)
                parent = up->parent;
            m->parent_ids[k] = find_dropped(d, n, row->rank, parent) ? -1 : parent;
        }
    }
}

/* The row's event_metadata without the dropped calls' entries; the text is
 * left as it is unless it is a list of one entry per call. */
static sp_status drop_metadata_entries(const sp_model *m, sp_model_row *row, const uint8_t *drop) {
    if (strcmp(row->event_metadata, "[]") == 0) return SP_OK;
    json_object *list = json_tokener_parse(row->event_metadata);
    if (!list || !json_object_is_type(list, json_type_array) ||
        json_object_array_length(list) != row->count) {
        json_object_put(list);
        return SP_OK;
    }
    json_object *kept = json_object_new_array();
    sp_status st = kept ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (uint64_t k = 0; !st && k < row->count; k++) {
        if (drop[row->offset + k]) continue;
        json_object *entry = json_object_get(json_object_array_get_idx(list, k));
        if (json_object_array_add(kept, entry) != 0) {
            json_object_put(entry);
            st = SP_ERR_OUT_OF_MEMORY;
        }
    }
    char *text = NULL;
    if (!st) {
        const char *s = json_object_to_json_string_ext(kept, JSON_C_TO_STRING_PLAIN);
        text = s ? strdup(s) : NULL;
        if (!text) st = SP_ERR_OUT_OF_MEMORY;
    }
    json_object_put(kept);
    json_object_put(list);
    if (!st) {
        sp_model_free_row_string(m, row->event_metadata);
        row->event_metadata = text;
    }
    return st;
}

/* Moves the kept events of every row down, in order (the write index never
 * passes the read index, so one pass in place suffices). */
static void compact(sp_model *m, const uint8_t *drop) {
    int64_t *cols[] = {m->starts, m->durations, m->thread_ids, m->call_ids, m->parent_ids};
    size_t w = 0;
    for (size_t r = 0; r < m->num_rows; r++) {
        sp_model_row *row = &m->rows[r];
        uint64_t first = row->offset, kept = 0;
        row->offset = w;
        for (uint64_t k = first; k < first + row->count; k++) {
            if (drop[k]) continue;
            for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
                if (cols[c]) cols[c][w] = cols[c][k];
            w++;
            kept++;
        }
        if (kept != row->count) {
            row->count = kept;
            row->exclusive_total = -1;
            sp_row_stats_compute(&row->stats, m->starts + row->offset, m->durations + row->offset,
                                 kept);
            row->has_stats = kept > 0;
        }
    }
    m->num_events = w;
}

sp_status sp_model_drop_calls(sp_model *m, const uint8_t *drop) {
    size_t n = 0;
    dropped_id *ids = collect_dropped_ids(m, drop, &n);
    if (m->call_ids && m->parent_ids && !ids) return SP_ERR_OUT_OF_MEMORY;
    for (size_t r = 0; r < m->num_rows; r++) {
        sp_status st = drop_metadata_entries(m, &m->rows[r], drop);
        if (st) {
            free(ids);
            return st;
        }
    }
    if (ids) reparent(m, drop, ids, n);
    free(ids);
    size_t before = m->num_events;
    compact(m, drop);
    uint64_t gone = before - m->num_events;
    m->num_events_loaded = m->num_events_loaded > gone ? m->num_events_loaded - gone : 0;
    return SP_OK;
}
