/*
 * Finalize without a second copy of the calls: the model gets everything but
 * the event columns (regions, rows with their counts, the thread table), and
 * the writer reads the events from the threads' chunks in bounded pieces,
 * merging the threads of a row in start order as record/collect.h does. The
 * file is the one sp_collect() + sp_write_model() write, value for value.
 * Nothing is given back while writing, so a failed write can be tried again
 * elsewhere (the fallback path).
 */
#ifndef SP_RECORD_COLLECT_STREAM_H
#define SP_RECORD_COLLECT_STREAM_H

#include "format/atomic_file.h"
#include "format/writer.h"
#include "model/model.h"
#include "record/collect.h"

typedef struct sp_collect_stream sp_collect_stream;

/* Fills m as sp_collect() does, except the event columns (m->num_events is
 * set, the columns stay NULL) and the rows' statistics (set by the write).
 * *out holds what the write needs; free it with sp_collect_stream_free().
 * count_losses 0: the report's counts of calls left out are already there
 * (sp_collect() ran and failed before it gave anything back). */
sp_status sp_collect_skeleton(sp_model *m, uint32_t rank, sp_collect_report *report,
                              int count_losses, sp_collect_stream **out);

/* Writes the profile of m (from sp_collect_skeleton, metadata added) with its
 * events read from the chunks; sets m's rows' statistics. Repeatable. */
sp_status sp_collect_stream_write(sp_collect_stream *s, sp_model *m, const char *path,
                                  const sp_write_options *options, const sp_target_id *since,
                                  char **saved_as, sp_error *err);

void sp_collect_stream_free(sp_collect_stream *s);

#endif
