/*
 * Time left out when naming the slowest rank (docs/parallel.md §2): ns spent
 * at call paths on ranks. The CLI and the report fill it from the wait
 * states (src/waits, a layer above this one) and attach it to the results;
 * the balances then name the rank with the most time outside it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/balance_calc.h"

struct sp_excluded_time {
    size_t count;
    sp_excluded_entry *entries; /* by (rank, path); paths owned */
};

static int by_rank_path(const void *a, const void *b) {
    const sp_excluded_entry *x = a, *y = b;
    if (x->rank != y->rank) return (x->rank > y->rank) - (x->rank < y->rank);
    return strcmp(x->path, y->path);
}

void sp_excluded_time_free(sp_excluded_time *x) {
    if (!x) return;
    for (size_t i = 0; i < x->count; i++)
        free((char *)x->entries[i].path);
    free(x->entries);
    free(x);
}

sp_status sp_results_set_excluded(const sp_results *results, const sp_excluded_entry *e, size_t n,
                                  int known) {
    sp_results *r = sp_results_mut(results);
    sp_excluded_time_free(r->excluded);
    r->excluded = NULL;
    r->excluded_state = known ? 1 : -1;
    if (!known) return SP_OK;
    sp_excluded_time *x = calloc(1, sizeof *x);
    if (x) x->entries = calloc(n ? n : 1, sizeof *x->entries);
    for (size_t i = 0; x && x->entries && i < n; i++) {
        char *path = strdup(e[i].path ? e[i].path : "");
        if (!path) break;
        x->entries[x->count++] = (sp_excluded_entry){e[i].rank, path, e[i].ns};
    }
    if (!x || !x->entries || x->count < n) {
        sp_excluded_time_free(x);
        r->excluded_state = 0;
        return SP_ERR_OUT_OF_MEMORY;
    }
    qsort(x->entries, x->count, sizeof *x->entries, by_rank_path);
    r->excluded = x;
    return SP_OK;
}

int sp_results_excluded_state(const sp_results *r) {
    return r->excluded_state;
}

/* The innermost region of a " > " path. */
static const char *innermost(const char *path) {
    const char *last = strstr(path, " > "), *p = last;
    while (p) {
        last = p;
        p = strstr(p + 3, " > ");
    }
    return last ? last + 3 : path;
}

/* Whether region `name` is one of the path's regions (exact, not a prefix). */
static int path_has(const char *path, const char *name, size_t n) {
    for (const char *p = path; p; p = strstr(p, " > ")) {
        if (p != path) p += 3;
        if (strncmp(p, name, n) == 0 && (p[n] == '\0' || strncmp(p + n, " > ", 3) == 0)) return 1;
    }
    return 0;
}

static int matches(const char *path, const char *what, size_t n, sp_excluded_scope scope) {
    switch (scope) {
    case SP_EXCLUDED_INSIDE_REGION:
        return path_has(path, what, n);
    case SP_EXCLUDED_OWN:
        return strcmp(innermost(path), what) == 0;
    default: /* SP_EXCLUDED_UNDER_PATH */
        return strncmp(path, what, n) == 0 && (path[n] == '\0' || strncmp(path + n, " > ", 3) == 0);
    }
}

/* The first entry of `rank` (entries are by rank). */
static size_t first_of(const sp_excluded_time *x, uint32_t rank) {
    size_t lo = 0, hi = x->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->entries[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t sp_excluded_ns(const sp_excluded_time *x, uint32_t rank, const char *what,
                       sp_excluded_scope scope) {
    if (!x || !what) return 0;
    size_t n = strlen(what);
    int64_t sum = 0;
    for (size_t i = first_of(x, rank); i < x->count && x->entries[i].rank == rank; i++)
        if (matches(x->entries[i].path, what, n, scope)) sum += x->entries[i].ns;
    return sum;
}

int64_t sp_results_excluded_ns(const sp_results *r, uint32_t rank, const char *what,
                               sp_excluded_scope scope) {
    return sp_excluded_ns(r->excluded, rank, what, scope);
}

/* Members with their time outside the excluded ns (never below 0). */
void sp_outside_members(const sp_excluded_time *x, const char *what, sp_excluded_scope scope,
                        sp_balance_member *m, size_t n) {
    for (size_t i = 0; i < n; i++) {
        double outside = m[i].total - sp_seconds(sp_excluded_ns(x, m[i].rank, what, scope));
        m[i].total = outside > 0.0 ? outside : 0.0;
    }
}

sp_status sp_region_outside_balance(const sp_mpi_region *region, const uint32_t *ranks,
                                    size_t num_ranks, sp_balance *out) {
    const sp_results *r = region->owner;
    memset(out, 0, sizeof *out);
    if (r->excluded_state != 1) return SP_ERR_UNAVAILABLE;
    sp_balance_member *m = malloc((region->num_entries + 1) * sizeof *m);
    if (!m) return SP_ERR_OUT_OF_MEMORY;
    size_t n = 0;
    for (size_t i = 0; i < region->num_entries; i++) { /* by rank */
        uint32_t row = region->by_rank[i], rank = r->m.rows[row].rank;
        int keep = !ranks || !num_ranks;
        for (size_t k = 0; !keep && k < num_ranks; k++)
            keep = ranks[k] == rank;
        if (!keep) continue;
        int64_t outside =
            r->rows[row].total_ns - sp_excluded_ns(r->excluded, rank, sp_mpi_region_name(region),
                                                   SP_EXCLUDED_INSIDE_REGION);
        m[n++] = (sp_balance_member){rank, -1, sp_seconds(outside > 0 ? outside : 0)};
    }
    sp_balance_compute(m, n, 0, out);
    free(m);
    return SP_OK;
}
