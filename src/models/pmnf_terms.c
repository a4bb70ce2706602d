/* Extra-P's standard single-parameter exponent set and the value of one term. */
#include <math.h>

#include "models/pmnf.h"

/* (i as num/den, j): every pair Extra-P's basic modeler tries with logarithms allowed. */
static const sp_pmnf_term terms[] = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1},  {1, 3, 1}, {1, 4, 2},
    {1, 3, 2}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0},  {3, 4, 0}, {2, 3, 1},
    {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2}, {1, 1, 0},  {1, 1, 1}, {1, 1, 2},
    {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0},  {3, 2, 1}, {3, 2, 2},
    {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2},  {9, 4, 0}, {7, 3, 0},
    {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};

const sp_pmnf_term *sp_pmnf_terms(size_t *n) {
    *n = sizeof terms / sizeof *terms;
    return terms;
}

double sp_pmnf_term_value(sp_pmnf_term t, double p) {
    double v = t.num ? pow(p, (double)t.num / t.den) : 1.0;
    for (int k = 0; k < t.log_exp; k++)
        v *= log2(p);
    return v;
}
