/*
 * Turns the threads' buffers into the columnar model at finalize: one row
 * per region with completed calls (rank 0), calls of all threads merged in
 * start order, ticks converted to CLOCK_MONOTONIC nanoseconds. Open and
 * dropped calls are left out and reported on stderr. The thread table is
 * always filled; thread ids only when several threads recorded calls.
 */
#ifndef SP_RECORD_COLLECT_H
#define SP_RECORD_COLLECT_H

#include <stdint.h>

#include "model/model.h"

typedef struct sp_collect_report {
    uint64_t calls;            /* completed calls collected */
    uint64_t open_calls;       /* still open at finalize, left out */
    uint64_t dropped_calls;    /* dropped by mismatched sp_end, left out */
    uint32_t threads;          /* threads with completed calls */
    uint64_t not_stored_calls; /* beyond the memory limit: counted, not stored */
    int given_back;            /* sp_collect began giving the chunks back */
} sp_collect_report;

/* Fills m's regions, rows, events and thread table (rank `rank`; per thread
 * its first and last activity and CPU time); frees the threads' chunks as it goes. */
sp_status sp_collect(sp_model *m, uint32_t rank, sp_collect_report *report);

#endif
