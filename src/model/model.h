/*
 * The columnar results model: what one profile file holds, in memory.
 *
 * The recorder builds it at finalize, the reader builds it from a file, the
 * writer writes it, the analysis computes on it. All times are int64
 * nanoseconds, absolute (decoded from start deltas / schema 2 / schema 1).
 * Rows follow the file's /rank_region_index: one per (rank, region) with
 * calls, rows of one rank consecutive, each row's events a contiguous slice
 * [offset, offset + count) of the event columns, in start order.
 */
#ifndef SP_MODEL_MODEL_H
#define SP_MODEL_MODEL_H

#include "common/visibility.h"
#include <stddef.h>
#include <stdint.h>

#include "model/histogram.h"
#include "scope_profiler/results.h"

/* The /rank_region_index/summary_statistics compound, one per row. */
typedef struct sp_row_stats {
    int64_t total;
    int64_t minimum;
    int64_t maximum;
    int64_t first;
    int64_t last;
    int64_t start_minimum;
    int64_t end_maximum;
    uint64_t gpu_count;
    int64_t gpu_total;
    double mean;
    double m2; /* sum of squared deviations from the mean */
} sp_row_stats;

typedef struct sp_model_row {
    uint32_t region; /* index into sp_model.region_names */
    uint32_t rank;
    uint64_t offset;         /* first event in the event columns */
    uint64_t count;          /* number of calls */
    int64_t source_line;     /* -1 = unknown */
    int64_t exclusive_total; /* -1 = not computed */
    char *source_file;       /* owned, never NULL ("" = unknown) */
    char *source_text;       /* owned, never NULL ("" = not captured) */
    char *tags;              /* owned JSON list, never NULL ("[]") */
    char *event_metadata;    /* owned JSON list, never NULL ("[]") */
    sp_row_stats stats;
    uint8_t has_stats; /* stats came from the file or were computed */
    /* sp_read_model_ranks: the row's rank was not selected, so its events
     * were not read (they are zeros); its facts come from stats. */
    uint8_t events_skipped;
    /* Extension (docs/format.md): bytes the row's MPI calls moved, counted by
     * the PMPI wrappers; has_message_bytes 0 (a zeroed row) = not counted.
     * (The flags are bytes: the row is held once per (rank, region), 3 M
     * times for 16,384 ranks x 200 regions, and ints cost it 8 bytes.) */
    uint8_t has_message_bytes;
    int64_t message_bytes;
} sp_model_row;

typedef enum sp_meta_type {
    SP_META_INT = 0,
    SP_META_FLOAT,
    SP_META_STRING,
    SP_META_STRING_LIST
} sp_meta_type;

typedef struct sp_meta_entry {
    char *key;
    sp_meta_type type;
    int64_t i;
    double f;
    char *s;     /* SP_META_STRING */
    char **list; /* SP_META_STRING_LIST */
    size_t list_len;
} sp_meta_entry;

/* One row of /thread_table. */
typedef struct sp_thread_info {
    uint32_t rank;
    int64_t index;
    int64_t ident;
    int64_t native_id;
    int8_t daemon;
    int64_t start_ns;
    int64_t end_ns;
    int64_t cpu_ns;
    char *name; /* owned, never NULL */
    /* Extension (docs/format.md): 1 + the index of the thread (same rank)
     * whose open calls this thread's top-level calls belong under; 0 for
     * none, so that a zeroed row has none. See sp_thread_parent(). */
    int64_t parent_slot;
} sp_thread_info;

/* The parent thread's index, or -1. */
static inline int64_t sp_thread_parent(const sp_thread_info *t) {
    return t->parent_slot > 0 ? t->parent_slot - 1 : -1;
}

/* Extension (docs/format.md, thread_forks): from since_ns on, the calls of
 * `thread` (same rank) that have no enclosing call on their own thread belong
 * under the innermost call of thread `parent` that was open at fork_ns (when
 * the parallel region began or the thread was created). */
typedef struct sp_thread_fork {
    uint32_t rank;
    int64_t thread;   /* thread id, as in the event columns */
    int64_t since_ns; /* absolute ns, as the events' starts */
    int64_t parent;   /* the forking thread's id; -1: no parent (its calls are roots) */
    int64_t fork_ns;  /* absolute ns */
} sp_thread_fork;

/* Extension: a rank's clock offset to rank 0 (ns to add to its timestamps). */
typedef struct sp_clock_offset {
    uint32_t rank;
    int64_t offset_ns;
    int64_t uncertainty_ns;
} sp_clock_offset;

/* Extension (docs/format.md): the durations of one call path on one thread
 * of one rank, as a histogram (aggregate mode keeps these instead of calls). */
typedef struct sp_model_hist {
    uint32_t rank;
    int64_t thread;  /* -1 unknown */
    uint32_t region; /* the path's innermost region (index into region_names) */
    int64_t parent;  /* index of the enclosing path's histogram (same rank and
                        thread), -1 for a top-level call */
    sp_hist hist;
    int64_t total; /* ns, the sum of the path's calls; valid when sp_model.hist_totals */
    double m2;     /* ns², Σ (d - mean)² of the path's calls; valid when sp_model.hist_spread */
    int64_t fork_parent; /* a top-level row of a forked thread: the row (same rank, another
                            thread) of the call that forked it, else -1; valid when
                            sp_model.hist_forks */
} sp_model_hist;

typedef enum sp_layout { SP_LAYOUT_COLUMNAR = 0, SP_LAYOUT_AGGREGATE = 1 } sp_layout;

typedef struct sp_model {
    char *path;     /* as given to the reader / writer; owned, may be NULL */
    int64_t schema; /* 1, 2 or 3 */
    sp_layout layout;

    size_t num_regions;
    char **region_names; /* owned; file order */

    size_t num_rows;
    sp_model_row *rows;

    size_t num_events;
    int64_t *starts;            /* absolute ns */
    int64_t *durations;         /* ns, >= 0 */
    int64_t *thread_ids;        /* NULL when absent */
    int64_t *call_ids;          /* NULL when absent */
    int64_t *parent_ids;        /* NULL when absent */
    uint64_t num_events_loaded; /* events read from the file (< num_events after a
                                   rank-selective read) */
    /* Set by a streamed read: the event columns above stay NULL and are read
     * window by window (model/event_window.h); freed by sp_model_clear. */
    struct sp_event_source *event_source;

    /* Blocks of distinct row strings the reader shares between rows (a large
     * index repeats the same few source files, tags and "[]"): a row string
     * pointing into one of these is not freed on its own. */
    char **shared_strings;
    size_t *shared_strings_size;
    size_t num_shared_strings;

    size_t num_meta;
    sp_meta_entry *meta; /* file order */

    size_t num_threads;
    sp_thread_info *threads; /* NULL when absent */

    size_t num_clock_offsets;
    sp_clock_offset *clock_offsets; /* NULL when absent */

    size_t num_forks;
    sp_thread_fork *forks; /* NULL when absent; sorted by (rank, thread, since_ns) */

    size_t num_hists;
    sp_model_hist *hists; /* NULL when absent */
    int hist_totals;      /* every histogram row carries its total (the optional `totals`) */
    int hist_spread;      /* ... and its m2 (the optional `squared_deviations`) */
    int hist_forks;       /* ... and its fork_parent (the optional `fork_parents`) */
} sp_model;

/* Frees everything the model owns and zeroes it (the struct itself is not freed). */
SP_INTERNAL_API void sp_model_clear(sp_model *m);

/* Frees one of a row's strings unless it lies in one of the shared blocks
 * (whoever replaces a row string frees the old one with this). */
SP_INTERNAL_API void sp_model_free_row_string(const sp_model *m, char *s);

/* String helpers: an owned copy ("" for NULL); NULL only when out of memory. */
SP_INTERNAL_API char *sp_strdup(const char *s);

/* Appends metadata; the key/value are copied. Replaces an existing key in place. */
SP_INTERNAL_API sp_status sp_model_meta_int(sp_model *m, const char *key, int64_t value);
SP_INTERNAL_API sp_status sp_model_meta_float(sp_model *m, const char *key, double value);
SP_INTERNAL_API sp_status sp_model_meta_string(sp_model *m, const char *key, const char *value);
SP_INTERNAL_API sp_status sp_model_meta_list(sp_model *m, const char *key,
                                             const char *const *values, size_t n);

/* The entry for key, or NULL. */
SP_INTERNAL_API const sp_meta_entry *sp_model_meta_find(const sp_model *m, const char *key);

/* Computes a row's summary statistics from its events (count must be > 0). */
SP_INTERNAL_API void sp_row_stats_compute(sp_row_stats *st, const int64_t *starts,
                                          const int64_t *durations, uint64_t count);

/*
 * Checks docs/layout.md's index invariants: region ids in range, rows of one rank
 * consecutive, offsets the running sum of counts, slices inside the event
 * columns and covering them. Fills err naming `what` (usually the path).
 */
SP_INTERNAL_API sp_status sp_model_check_index(const sp_model *m, const char *what, sp_error *err);

#endif
