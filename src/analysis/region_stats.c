/* Pooled numbers of one region_statistics.json entry (§6.1). */
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"
#include "analysis/pool.h"
#include "analysis/region_entry.h"

sp_status sp_region_pool_stats(const sp_mpi_region *region, const uint32_t *ranks, size_t num_ranks,
                               sp_pool_stats *out, sp_error *err) {
    memset(out, 0, sizeof *out);
    size_t cap = ranks ? num_ranks : region->num_entries;
    uint32_t *rows = malloc((cap ? cap : 1) * sizeof *rows);
    if (!rows) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    if (!ranks) {
        memcpy(rows, region->entries, region->num_entries * sizeof *rows);
        n = region->num_entries;
    }
    for (size_t k = 0; ranks && k < num_ranks; k++) {
        int found;
        uint32_t i = sp_region_entry_index(region, ranks[k], &found);
        if (found) rows[n++] = region->by_rank[i];
    }
    sp_pool p;
    sp_status st = sp_pool_rows(region->owner, rows, n, SP_POOL_BASIC, &p, err);
    free(rows);
    if (st != SP_OK || !p.has_timing) return st;
    *out = (sp_pool_stats){.count = p.calls,
                           .average = p.average,
                           .min = sp_seconds(p.min_ns),
                           .max = sp_seconds(p.max_ns),
                           .first = p.first,
                           .last = p.last,
                           .std = p.std,
                           .total = p.total_psum};
    return SP_OK;
}
