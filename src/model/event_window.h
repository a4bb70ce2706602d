/*
 * A window on the event columns: the calls of a contiguous range of model
 * rows (rows follow the event columns, so any row range is one slice).
 * A model read whole serves every window from its own columns; a streamed
 * model (format/event_source.h) keeps the columns in the file and reads,
 * decodes and checks each window on demand, so a pass over the calls holds
 * one window at a time instead of 16 bytes per call.
 *
 *   sp_event_window w = SP_EVENT_WINDOW_INIT;
 *   for (size_t a = 0, b; a < m->num_rows; a = b) {
 *       b = sp_event_batch_end(m, a);
 *       if (sp_model_events(m, a, b, &w, err)) break;
 *       ... w.starts[e - w.first] for e in the rows' [offset, offset + count) ...
 *   }
 *   sp_event_window_free(&w);
 */
#ifndef SP_MODEL_EVENT_WINDOW_H
#define SP_MODEL_EVENT_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "common/visibility.h"
#include "model/model.h"

typedef struct sp_event_window {
    uint64_t first; /* event index of element 0 */
    uint64_t count;
    /* indexed by event - first; thread_ids, call_ids, parent_ids NULL when absent */
    const int64_t *starts, *durations, *thread_ids, *call_ids, *parent_ids;
    /* rows [row_begin, row_end) are loaded (streamed models; reused when asked again) */
    size_t row_begin, row_end;
    int64_t *owned[5]; /* buffers of a streamed window, reused between loads */
    size_t capacity;
} sp_event_window;

#define SP_EVENT_WINDOW_INIT                                                                       \
    { 0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, {NULL}, 0 }

/* The reader's side of a streamed model (format/event_source.c). */
typedef struct sp_event_source_ops {
    /* Reads, decodes and checks the calls of rows [a, b) into w's buffers. */
    sp_status (*load)(struct sp_event_source *s, const sp_model *m, size_t a, size_t b,
                      sp_event_window *w, sp_error *err);
    void (*close)(struct sp_event_source *s);
} sp_event_source_ops;

struct sp_event_source {
    const sp_event_source_ops *ops;
    uint8_t *tree_sorted; /* per row: calls already in (start asc, end desc) order */
};

/* Nonzero when the model's event columns stay in the file. */
static inline int sp_model_streamed(const sp_model *m) {
    return m->event_source != NULL;
}

/* Rows [a, b) of the model in *w (b > a, b <= num_rows). A model read whole
 * points w at its columns (no copy); a streamed one fills w's buffers. */
SP_INTERNAL_API sp_status sp_model_events(const sp_model *m, size_t a, size_t b, sp_event_window *w,
                                          sp_error *err);

/* The end of a batch of rows from a: whole rows of at most SP_EVENT_BATCH
 * events together (a longer row alone); num_rows for a model read whole. */
#define SP_EVENT_BATCH ((uint64_t)1 << 18)
SP_INTERNAL_API size_t sp_event_batch_end(const sp_model *m, size_t a);

SP_INTERNAL_API void sp_event_window_free(sp_event_window *w);

/* Thread id of event e in w (0 without thread ids, as the exports count it). */
static inline int64_t sp_window_thread(const sp_event_window *w, uint64_t e) {
    return w->thread_ids ? w->thread_ids[e - w->first] : 0;
}

#endif
