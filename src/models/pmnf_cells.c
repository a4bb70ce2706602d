#include "models/pmnf_cells.h"

#include <math.h>
#include <stdlib.h>

static int by_pq(const void *a, const void *b) {
    const sp_pmnf_cell *x = a, *y = b;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

size_t sp_pmnf_cell_means(const double *p, const double *q, const double *t, size_t n,
                          sp_pmnf_cell *out, size_t *points) {
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (!isnan(t[k])) out[m++] = (sp_pmnf_cell){p[k], q ? q[k] : 0.0, t[k], 1};
    *points = m;
    qsort(out, m, sizeof *out, by_pq);
    size_t d = 0;
    for (size_t k = 0; k < m; k++) {
        if (d && out[d - 1].p == out[k].p && out[d - 1].q == out[k].q) {
            out[d - 1].t += out[k].t;
            out[d - 1].reps++;
        } else {
            out[d++] = out[k];
        }
    }
    for (size_t k = 0; k < d; k++)
        out[k].t /= (double)out[k].reps;
    return d;
}
