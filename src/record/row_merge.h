/*
 * The calls of one region over several threads, merged in start order (ties:
 * the thread listed first; one thread's calls keep their recording order),
 * ticks converted to CLOCK_MONOTONIC ns, a negative span stored as 0: the
 * order and values record/collect.c has always written. Read in pieces of any
 * size; optionally each chunk is given back (record/store.h) once read.
 */
#ifndef SP_RECORD_ROW_MERGE_H
#define SP_RECORD_ROW_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "record/thread_state.h"

typedef struct sp_row_merge sp_row_merge;

/* Room for rows over up to max_threads threads; NULL when out of memory. */
sp_row_merge *sp_row_merge_new(uint32_t max_threads);
void sp_row_merge_free(sp_row_merge *m);

/* Starts on the region's calls of threads[0..n) (n <= max_threads); thread
 * ids are the threads' positions in the list. */
void sp_row_merge_start(sp_row_merge *m, sp_thread *const *threads, uint32_t n, sp_region_t region,
                        int give_back);

/* The next (up to) max calls; 0 when the row is done. thread_ids may be NULL. */
size_t sp_row_merge_next(sp_row_merge *m, int64_t *starts, int64_t *durations, int64_t *thread_ids,
                         size_t max);

#endif
