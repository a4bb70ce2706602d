/*
 * scope-profiler merge: the plan (merge_scan.c) that a first pass over the
 * inputs builds, and that the writing pass (merge.c) follows. Only one input
 * file is held in memory at a time.
 */
#ifndef SP_CLI_MERGE_H
#define SP_CLI_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli_list.h"
#include "model/model.h"

typedef struct merge_input {
    const char *path;
    uint32_t *ranks; /* distinct ranks of its rows, ascending, as merged */
    size_t num_ranks;
    int64_t remap_rank0; /* -1, or the rank its rank-0 rows become (metadata mpi_rank) */
    char **names;        /* its region table (first pass only) */
    size_t num_names;
    uint32_t *region_map; /* its region index -> the merged region table */
    uint64_t num_events;
    int has_threads;
    int aggregate;  /* aggregate layout (merged by merge_aggregate.c) */
    char *hostname; /* metadata "hostname", NULL when absent */
} merge_input;

typedef struct merge_plan {
    merge_input *inputs; /* sorted by lowest rank (files without rows last) */
    size_t count;
    char **names; /* the merged region table */
    size_t num_names;
    size_t num_ranks; /* distinct ranks over all inputs */
    uint32_t max_rank;
    uint64_t total_events;
    int has_threads;
    size_t num_nodes; /* distinct host names when every input has one, else 0 */
    int aggregate;    /* every input is an aggregate-layout file */
} merge_plan;

/*
 * First pass: reads every file, finds its ranks, refuses files that cannot
 * be merged (unreadable, aggregate and per-call files mixed, ranks that
 * collide), orders the
 * inputs and builds the merged region table. Returns 0 or an exit code
 * after printing the error.
 */
int merge_scan(const cli_list *files, merge_plan *plan);

/* The merged /metadata: the lowest rank's (m) without mpi_rank, with mpi_size
 * and num_nodes of the plan. The entries borrow m's strings; free the array
 * only. NULL when out of memory. */
sp_meta_entry *merge_metadata(const merge_plan *plan, const sp_model *m, size_t *count);

/* The writing pass for aggregate-layout inputs (merge_aggregate.c): rows,
 * thread tables and histograms of every input in one model, then the
 * aggregate writer. */
sp_status merge_write_aggregate(const merge_plan *plan, const char *out_path, sp_error *err);

/* The rank a row of this input is written with. */
uint32_t merge_row_rank(const merge_input *in, uint32_t rank);

void merge_plan_free(merge_plan *plan);

#endif
