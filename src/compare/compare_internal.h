/*
 * Private to src/compare/: one run's values per row key (a region or a call
 * path), the pooling of a side's runs, and the t distribution.
 */
#ifndef SP_COMPARE_INTERNAL_H
#define SP_COMPARE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "scope_profiler/compare.h"

/* One key (region or path) of one run. */
typedef struct cmp_entry {
    char *name;      /* owned */
    int has_value;   /* the metric has a value (Python: not None) */
    double value;    /* the metric */
    uint64_t calls;  /* calls on the selected ranks */
    int has_samples; /* per-call durations are known: mean and var below */
    double mean;     /* mean duration per call, s */
    double var;      /* population variance of the per-call durations, s^2 */
    double total;    /* total duration, s */
} cmp_entry;

typedef struct cmp_entries {
    cmp_entry *items;
    size_t count;
} cmp_entries;

/* The entries of one run, by region (region_values.c) or by call path
 * (path_values.c). SP_ERR_UNAVAILABLE when the metric needs data the file
 * lacks (the message names the file). */
sp_status cmp_region_entries(const sp_results *r, const sp_compare_options *o, cmp_entries *out,
                             sp_error *err);
sp_status cmp_path_entries(const sp_results *r, const sp_compare_options *o, cmp_entries *out,
                           sp_error *err);
void cmp_entries_free(cmp_entries *e);

/* One key over the runs of a side (side.c). */
typedef struct cmp_pooled {
    const char *name;         /* points into the side's entries */
    uint32_t runs;            /* runs holding the key with a value */
    double value;             /* mean of those runs' values */
    int has_samples;          /* every such run has per-call durations */
    uint64_t calls;           /* calls pooled over those runs */
    double mean, var;         /* pooled per-call mean and population variance */
    const double *run_values; /* the runs' values of the metric (runs of them), for the
                                 run-level test; points into cmp_side.values */
} cmp_pooled;

typedef struct cmp_side {
    cmp_entries *runs; /* one per run */
    size_t num_runs;
    cmp_pooled *keys; /* sorted by name (strcmp) */
    size_t num_keys;
    double *values; /* every key's run values, key after key */
} cmp_side;

sp_status cmp_side_build(const sp_results *const *runs, size_t n, const sp_compare_options *o,
                         cmp_side *out, sp_error *err);
void cmp_side_free(cmp_side *s);

/* Two-sided p-value of Student's t with df degrees of freedom (df = INFINITY: normal). */
double cmp_t_two_sided_p(double t, double df);
/* The t with two-sided p-value p (0 < p < 1): the (1 - p/2) quantile. */
double cmp_t_quantile_two_sided(double p, double df);

/* scaling_pop.c: s->useful and s->computation_scalability, when the runs allow. */
void sp_scaling_computation(sp_scaling *s, const sp_results *const *runs, size_t n);

#endif
