/* get_regions(): the selected regions in first-start order (§2.2). */
#include <stdlib.h>

#include "analysis/filter.h"
#include "analysis/regions.h"
#include "common/error.h"

sp_status sp_select_regions(const sp_results *r, sp_compiled_filter *f, uint32_t **out, size_t *n,
                            sp_error *err) {
    size_t total = r->m.num_regions;
    *n = 0;
    *out = malloc((total ? total : 1) * sizeof **out);
    if (!*out) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < total; i++) {
        uint32_t g = r->start_order[i];
        int keep = f ? sp_filter_keeps_region(f, r, g) : 1;
        if (keep < 0) {
            free(*out);
            *out = NULL;
            *n = 0;
            return sp_filter_failure(f, err);
        }
        if (keep) (*out)[(*n)++] = g;
    }
    return SP_OK;
}

const sp_mpi_region **sp_results_get_regions(const sp_results *r, const sp_filter *filter,
                                             size_t *count, sp_error *err) {
    *count = 0;
    sp_compiled_filter *f = sp_filter_compile(filter, err);
    if (!f) return NULL;
    uint32_t *idx = NULL;
    size_t n = 0;
    const sp_mpi_region **list = NULL;
    if (sp_select_regions(r, f, &idx, &n, err) == SP_OK) {
        list = malloc((n ? n : 1) * sizeof *list);
        if (!list) sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; list && i < n; i++)
            list[i] = &r->regions[idx[i]];
        if (list) *count = n;
    }
    free(idx);
    sp_filter_free(f);
    return list;
}

void sp_region_list_free(const sp_mpi_region **list) {
    free((void *)list);
}
