/*
 * Test support: results built from hand-written calls with exactly known
 * timestamps, without any file.
 */
#ifndef SP_TEST_MODEL_BUILDER_H
#define SP_TEST_MODEL_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "model/results_model.h"

#define MB_NO_THREAD INT64_MIN

typedef struct mb_call {
    int region; /* index into mb_spec.regions */
    uint32_t rank;
    int64_t start, end; /* ns */
    int64_t thread;     /* MB_NO_THREAD: none (with_threads must then be 0) */
} mb_call;

/* A /thread_table row: parent -1 for none. */
typedef struct mb_thread {
    uint32_t rank;
    int64_t index, parent;
} mb_thread;

typedef struct mb_spec {
    const char *path; /* NULL: "profiling_data.h5" */
    const char *const *regions;
    size_t num_regions;
    const mb_call *calls; /* each row's calls in the given order */
    size_t num_calls;
    int with_threads;
    const uint32_t *rank_order; /* rows of these ranks in this order; NULL: ascending */
    size_t num_rank_order;
    int has_start, has_finalize;
    int64_t start_time_ns, finalize_time_ns;
    const char *label;
    int64_t mpi_size; /* 0: no metadata entry */
    const mb_thread *threads; /* the thread table; NULL: none */
    size_t num_threads;
} mb_spec;

/* Builds the model: rows per rank (rank_order or ascending), regions in file
 * order within a rank; exclusive_total -1; statistics computed. Fails the test on error. */
void mb_model(const mb_spec *spec, sp_model *out);

/* mb_model + sp_results_adopt. */
sp_results *mb_results(const mb_spec *spec);

/* Turns a model into the aggregate layout (drops the events, keeps the statistics). */
void mb_make_aggregate(sp_model *m);

/* The model row of (region, rank), or NULL. */
sp_model_row *mb_row(sp_model *m, int region, uint32_t rank);

#endif
