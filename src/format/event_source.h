/*
 * The streamed read's event source (model/event_window.h): the event
 * columns stay in the file, and each window of rows is read as a hyperslab,
 * decoded and checked exactly as the whole read does it
 * (sp_rd_decode_row, sp_rd_check_thread_ids).
 */
#ifndef SP_FORMAT_EVENT_SOURCE_H
#define SP_FORMAT_EVENT_SOURCE_H

#include "format/h5_read.h"
#include "model/model.h"

/* Opens /events for streaming: column types, shapes, storage and lengths
 * checked, the index checked against them (sp_model_check_index, distinct
 * rows), m->num_events set and m->event_source attached (its own handle on
 * the file). Every row is marked events_skipped until
 * sp_rd_event_source_check clears the marks. */
sp_status sp_rd_event_source_open(sp_rd *rd, sp_model *m);

/* One pass over every call once the read is done (its file closed): each
 * window decoded and checked, each row's tree order noted, and each row
 * held to what sp_rd_plausibility checks. *streamable 0 when a call would be
 * dropped or a row's statistics are not its calls'; an error when a window
 * cannot be read or fails a check. Either way the caller then reads the
 * file whole (which reports or repairs it as always). */
sp_status sp_event_source_check(sp_model *m, int *streamable, sp_error *err);

#endif
