/*
 * The measurements of a model fit grouped by their parameter values: one
 * cell per distinct (p, q) with the mean time of its repetitions (one- and
 * two-parameter fits alike; a one-parameter fit has q = 0 everywhere).
 */
#ifndef SP_MODELS_PMNF_CELLS_H
#define SP_MODELS_PMNF_CELLS_H

#include <stddef.h>

typedef struct sp_pmnf_cell {
    double p, q, t; /* t: the mean of the cell's measurements */
    size_t reps;
} sp_pmnf_cell;

/* The distinct (p, q), sorted by p then q, into out (room for n); q NULL:
 * 0 for every measurement. Measurements whose time is NaN are skipped;
 * *points = the measurements kept. Returns the number of cells. */
size_t sp_pmnf_cell_means(const double *p, const double *q, const double *t, size_t n,
                          sp_pmnf_cell *out, size_t *points);

#endif
