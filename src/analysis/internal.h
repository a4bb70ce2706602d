/*
 * Private to src/analysis/: the layout of the results objects and the
 * inline helpers on it, the bottom layer of the analysis (README.md,
 * "Layers"). Functions live in the header of the file that defines them.
 * Presenters use analysis.h instead.
 */
#ifndef SP_ANALYSIS_INTERNAL_H
#define SP_ANALYSIS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/results_model.h"

#define SP_NS_PER_SECOND 1e9

/* Facts about one model row, derived once when the results are built. */
typedef struct sp_row_info {
    int64_t first_start_ns; /* earliest start (0 without calls) */
    int64_t last_end_ns;    /* latest end */
    int64_t total_ns;       /* sum of durations */
    int64_t min_ns, max_ns;
    uint8_t shadowed;    /* a later row holds the same (region, rank): Python keeps the later one */
    uint8_t tree_sorted; /* calls already in (start asc, end desc) order */
} sp_row_info;

/* Pooled statistics of a set of rows (one region, several ranks). */
typedef struct sp_pool {
    uint64_t calls;
    size_t num_entries; /* rank entries pooled (with or without calls) */
    int has_timing;     /* at least one call */
    double total_lr;    /* left-to-right sum of the per-rank totals (MPIRegion.total_duration) */
    double total_psum;  /* numpy sum of the pooled seconds (region_statistics, table rows) */
    double average, std;
    int64_t min_ns, max_ns;
    double first, last;
    double first_start, last_end; /* seconds, min/max over the timed entries */
    double imbalance, imbalance_pct;
    int has_percentiles;
    double p50, p95, p99;
    double percentile_error; /* relative error bound: 0 exact, else from histograms */
} sp_pool;

/* Which parts of sp_pool to compute (the percentiles cost a scratch copy). */
enum { SP_POOL_BASIC = 0, SP_POOL_PERCENTILES = 1 };

/* One per model row (3 M at 16,384 ranks x 200 regions): the results are
 * reached through the region (sp_rr_owner), not held a second time. */
struct sp_rank_region {
    const sp_mpi_region *region;
    uint32_t row;
};

struct sp_mpi_region {
    const sp_results *owner;
    uint32_t index;
    size_t num_entries;
    uint32_t *entries; /* model rows in Python's rank-dict order (row order) */
    uint32_t *by_rank; /* the same rows by ascending rank */
    double order_key;  /* get_regions() sort key: min first_start_time of the entries */
    int pooled_state;  /* 0 not yet computed, 1 computed, 2 failed */
    sp_pool pooled;
};

static inline const sp_results *sp_rr_owner(const sp_rank_region *rr) {
    return rr->region->owner;
}

struct sp_results {
    sp_model m;
    char *path_text;              /* the path as pathlib prints it */
    char *label;                  /* NULL when the run has none */
    char *display_label;          /* label or file stem */
    sp_row_info *rows;            /* one per model row */
    sp_rank_region *rank_regions; /* one per model row */
    sp_mpi_region *regions;       /* one per region name */
    uint32_t *data_ranks;         /* distinct ranks with rows, ascending */
    size_t num_data_ranks;
    size_t num_ranks;      /* Python's num_ranks */
    uint32_t *start_order; /* all regions in get_regions() order */
    int has_calls;
    int64_t min_start_ns, max_end_ns;
    double min_start, max_end; /* seconds, as Python's min/max of the per-region doubles */
    int exclusive_state;       /* 0 not computed, 1 computed, 2 failed, 3 stored totals suffice */
    sp_error exclusive_error;
    int64_t *row_exclusive;    /* per model row, when computed */
    struct sp_lane_key *lanes; /* (rank, thread) lanes, built on first use (threads.c) */
    sp_hist *row_hists;        /* aggregate files: per model row, built on first use */
    size_t num_lanes;
    uint32_t *name_slots; /* region index + 1 by name hash, built on first use (region_lookup.c) */
    size_t name_slots_cap;
    sp_excluded_time *excluded; /* excluded_time.c: attached by the CLI or the report */
    int excluded_state;         /* 0 none, 1 known, -1 unknown */
};

/* Frees what sp_results_set_excluded attached (excluded_time.c). */
void sp_excluded_time_free(sp_excluded_time *x);

/* end = start + duration, saturating instead of overflowing on damaged data. */
static inline int64_t sp_end_ns(int64_t start, int64_t duration) {
    int64_t end;
    if (__builtin_add_overflow(start, duration, &end)) return INT64_MAX;
    return end;
}

static inline double sp_seconds(int64_t ns) {
    return (double)ns / SP_NS_PER_SECOND;
}

/* The results' mutable caches behind a const handle (lazy computation). */
static inline sp_results *sp_results_mut(const sp_results *r) {
    return (sp_results *)r;
}

/* Nonzero when the file holds per-call events. */
static inline int sp_columnar(const sp_results *r) {
    return r->m.layout == SP_LAYOUT_COLUMNAR;
}

#endif
