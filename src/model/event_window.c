#include "model/event_window.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

sp_status sp_model_events(const sp_model *m, size_t a, size_t b, sp_event_window *w,
                          sp_error *err) {
    if (!sp_model_streamed(m)) {
        w->first = 0;
        w->count = m->num_events;
        w->starts = m->starts;
        w->durations = m->durations;
        w->thread_ids = m->thread_ids;
        w->call_ids = m->call_ids;
        w->parent_ids = m->parent_ids;
        w->row_begin = 0;
        w->row_end = m->num_rows;
        return SP_OK;
    }
    if (w->starts && w->row_begin == a && w->row_end == b) return SP_OK;
    sp_status st = m->event_source->ops->load(m->event_source, m, a, b, w, err);
    if (st) {
        w->starts = NULL;
        w->row_begin = w->row_end = 0;
    }
    return st;
}

size_t sp_event_batch_end(const sp_model *m, size_t a) {
    if (!sp_model_streamed(m)) return m->num_rows;
    size_t b = a + 1;
    uint64_t n = m->rows[a].count;
    while (b < m->num_rows && n + m->rows[b].count <= SP_EVENT_BATCH)
        n += m->rows[b++].count;
    return b;
}

void sp_event_window_free(sp_event_window *w) {
    for (size_t i = 0; i < sizeof w->owned / sizeof *w->owned; i++)
        free(w->owned[i]);
    memset(w, 0, sizeof *w);
}
