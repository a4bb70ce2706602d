/*
 * Wait states and the POP efficiencies of an MPI profile (issue 25;
 * docs/parallel.md §6): who waited for whom, computed after the run from
 * the MPI calls' times and the peer records of /scope_profiler_c/mpi_calls.
 */
#ifndef SP_WAITS_WAITS_H
#define SP_WAITS_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "common/visibility.h"
#include "model/model.h"
#include "scope_profiler/results.h"

/* The peer records as read from the file (docs/format.md), one per call. */
typedef struct sp_peer_table {
    size_t n;
    int64_t *ranks, *calls, *peers, *tags, *comms, *bytes, *aux, *sources, *source_tags;
    int64_t *threads; /* the calling threads' OS ids; NULL in files without them */
    size_t num_completions;
    int64_t *c_ranks, *c_requests, *c_sources, *c_tags;
    size_t num_comms, num_members;
    int64_t *comm_ranks, *comm_ids, *comm_sizes, *comm_members;
    size_t num_complete;
    int64_t *complete;
    size_t num_call_names;
    char **call_names;
} sp_peer_table;

/* Reads the group; *present 0 (and SP_OK) when the file has none. */
SP_INTERNAL_API sp_status sp_peer_table_read(const char *path, sp_peer_table *t, int *present,
                                             sp_error *err);
SP_INTERNAL_API void sp_peer_table_free(sp_peer_table *t);

typedef enum sp_wait_kind {
    SP_WAIT_LATE_SENDER,
    SP_WAIT_LATE_RECEIVER,
    SP_WAIT_COLLECTIVE,     /* N x N: entry to the last rank's entry */
    SP_WAIT_LATE_BROADCAST, /* 1 to N: a rank waits for the root */
    SP_WAIT_EARLY_REDUCE,   /* N to 1: the root waits for the last rank */
    SP_WAIT_KINDS
} sp_wait_kind;

/* One line of the answer: a kind of waiting by one rank, caused by one rank
 * in one region, at one MPI call path, summed over its occurrences. */
typedef struct sp_wait_row {
    sp_wait_kind kind;
    uint32_t waiting_rank, late_rank;
    char *call_path; /* the waiting rank's MPI call, " > " between regions */
    char *late_path; /* the late rank's regions at the moment the wait began ("" none) */
    int64_t wait_ns;
    uint64_t count;
} sp_wait_row;

typedef struct sp_pop {
    double load_balance, communication, serialisation, transfer, parallel;
    int64_t runtime_ns, ideal_runtime_ns;
    double average_useful_ns, max_useful_ns;
} sp_pop;

/* POP over the calls of one call path (docs/parallel.md §6.4). */
typedef struct sp_path_pop {
    char *path; /* " > " between regions */
    sp_pop pop; /* runtime_ns: the longest rank's time in the path */
} sp_path_pop;

typedef struct sp_waits {
    int peer_data;       /* the file had /scope_profiler_c/mpi_calls */
    int64_t eager_bytes; /* the assumption Late Receiver used */
    uint32_t num_ranks;
    size_t num_rows;
    sp_wait_row *rows; /* by wait_ns, largest first */
    int64_t total_ns[SP_WAIT_KINDS];
    int64_t *rank_wait_ns;   /* [num_ranks]: every kind, in the main thread's calls */
    int64_t *rank_useful_ns; /* [num_ranks]: time outside MPI calls */
    uint64_t messages, unmatched_sends, unmatched_receives;
    uint64_t unaligned_calls;  /* calls whose records did not line up with the events */
    uint64_t incomplete_ranks; /* ranks whose recorder ran out of memory */
    uint64_t collectives, unmatched_collectives;
    sp_pop pop;
    size_t num_paths;
    sp_path_pop *paths; /* the non-MPI call paths, longest runtime first */
} sp_waits;

/* Computes everything; m must be aligned to rank 0's clock
 * (sp_align_rank_clocks). peers NULL: no peer data (collectives by order). */
SP_INTERNAL_API sp_status sp_waits_compute(const sp_model *m, const sp_peer_table *peers,
                                           int64_t eager_bytes, sp_waits *out, sp_error *err);
SP_INTERNAL_API void sp_waits_free(sp_waits *w);

/* POP from useful (non-MPI) time per rank, the runtime and the ideal-network runtime. */
SP_INTERNAL_API sp_pop sp_pop_compute(const int64_t *useful_ns, uint32_t num_ranks,
                                      int64_t runtime_ns, int64_t ideal_runtime_ns);
/* The same from the sum and maximum of the useful times. */
SP_INTERNAL_API sp_pop sp_pop_from_sums(double useful_sum, double max_useful, uint32_t num_ranks,
                                        int64_t runtime_ns, int64_t ideal_runtime_ns);

SP_INTERNAL_API const char *sp_wait_kind_name(sp_wait_kind k);

/* The eager limit Late Receiver assumes unless told (Open MPI's TCP default). */
enum { SP_WAITS_EAGER_BYTES = 65536 };

/* The waits of a profile with peer records (read, clocks aligned,
 * computed); *present 0 (SP_OK, *out empty) for files without them or
 * aggregate ones. sp_waits_free *out when *present. */
SP_INTERNAL_API sp_status sp_waits_of_file(const char *path, int64_t eager_bytes, sp_waits *out,
                                           int *present, sp_error *err);

/* A rank and what it was doing while others waited for it, and how long. */
typedef struct sp_wait_cause {
    uint32_t late_rank;
    const char *late_path; /* into the sp_waits rows; "" outside any region */
    int64_t wait_ns;
} sp_wait_cause;

/* The computation (a late path not inside an MPI call: a rank that was
 * itself waiting only passes the wait on) whose waits add up to most.
 * Returns 0 when there is none. */
SP_INTERNAL_API int sp_waits_largest_cause(const sp_waits *w, sp_wait_cause *c);

/* The waits of `rank` in calls inside region `name` (any call path through
 * it): returns their sum, and sets *c to the late rank and path that cause
 * most of them (late paths inside MPI calls only when no other is). */
SP_INTERNAL_API int64_t sp_waits_in_region(const sp_waits *w, uint32_t rank, const char *name,
                                           sp_wait_cause *c);

/* Attaches the waits of every rank's MPI calls to the results as the time
 * the balances leave out when naming the slowest rank (docs/parallel.md §2;
 * sp_results_set_excluded); w NULL: the waits are unknown (no peer records).
 * SP_ERR_OUT_OF_MEMORY. */
SP_INTERNAL_API sp_status sp_waits_attach(const sp_results *r, const sp_waits *w);

/* For results with MPI calls of several ranks: attaches w, or marks the
 * waits unknown when w is NULL; nothing for other results. */
SP_INTERNAL_API void sp_waits_attach_to(const sp_results *r, const sp_waits *w);
/* The same with the waits of the file `path` (the results' file), computed
 * here; on a read error nothing is attached. */
SP_INTERNAL_API void sp_waits_attach_file(const sp_results *r, const char *path);

#endif
