/* "Did you mean ...?": the closest region name by edit distance. */
#include <stdlib.h>
#include <string.h>

#include "common/py_repr.h"
#include "common/utf8.h"
#include "analysis/suggest.h"

/* Decodes s into code points (malloc'ed); *n its length. */
static uint32_t *code_points(const char *s, size_t *n) {
    size_t len = strlen(s), i = 0, k = 0;
    uint32_t *cp = malloc((len ? len : 1) * sizeof *cp);
    if (!cp) return NULL;
    while (i < len)
        cp[k++] = sp_utf8_next(s, len, &i);
    *n = k;
    return cp;
}

static size_t min3(size_t a, size_t b, size_t c) {
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance: insertions, deletions, substitutions and
 * transpositions of neighbours each cost 1 ("sovle" -> "solve" is 1). Returns
 * SIZE_MAX when out of memory. */
static size_t osa_distance(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
    size_t w = nb + 1;
    size_t *d = malloc(3 * w * sizeof *d); /* rows i-2, i-1, i */
    if (!d) return SIZE_MAX;
    size_t *prev2 = d, *prev = d + w, *cur = d + 2 * w;
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    size_t out = prev[nb];
    free(d);
    return out;
}

long sp_suggest_name(const char *query, const char *const *names, size_t n) {
    size_t nq;
    uint32_t *q = code_points(query, &nq);
    if (!q) return -1;
    size_t limit = nq / 3 > 1 ? nq / 3 : 1;
    long best = -1;
    size_t best_distance = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t nc;
        uint32_t *c = code_points(names[i], &nc);
        if (!c) break;
        size_t dist = osa_distance(q, nq, c, nc);
        free(c);
        if (dist <= limit && dist < best_distance) {
            best = (long)i;
            best_distance = dist;
        }
    }
    free(q);
    return best;
}
