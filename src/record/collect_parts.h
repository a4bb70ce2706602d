/*
 * The parts of finalize's collection that the model path (record/collect.h)
 * and the streaming path (record/collect_stream.h) share.
 */
#ifndef SP_RECORD_COLLECT_PARTS_H
#define SP_RECORD_COLLECT_PARTS_H

#include <stdint.h>

#include "model/model.h"
#include "record/collect.h"
#include "record/thread_state.h"

/* Threads that completed at least one call, in order of their first call
 * (malloc'ed; *count of them); NULL when out of memory. */
sp_thread **sp_collect_threads(uint32_t num_regions, uint32_t *count);

/* Counts (and reports on stderr) the calls left out: open, dropped, not stored. */
void sp_collect_report_losses(sp_collect_report *report, uint32_t num_handles);

/* Appends the next row (and its region name) to m, whose arrays have room:
 * name, source location and empty texts from the registry; stats not set.
 * NULL when out of memory (the row is counted, so sp_model_clear frees it). */
sp_model_row *sp_collect_add_row(sp_model *m, sp_region_t region, uint32_t rank, uint64_t offset,
                                 uint64_t count);

/* One thread's entry (index `index`, the session owner's index or -1):
 * identity, the owner as its parent, CPU time so far, name. */
sp_status sp_collect_thread_info(sp_thread_info *info, sp_thread *t, uint32_t rank, uint32_t index,
                                 int64_t owner);

/* Fills m's thread table from the threads; each thread's first and last
 * activity comes from m's event columns, or stays for the caller to set when
 * m has none. */
sp_status sp_collect_thread_table(sp_model *m, sp_thread **threads, uint32_t n, uint32_t rank);

#endif
