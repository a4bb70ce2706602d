#include "analysis/region_entry.h"

uint32_t sp_region_entry_index(const sp_mpi_region *reg, uint32_t rank, int *found) {
    const sp_model *m = &reg->owner->m;
    const uint32_t *by = reg->by_rank;
    /* A region on every rank 0..n-1 (the usual case) holds rank r at r. */
    if (rank < reg->num_entries && m->rows[by[rank]].rank == rank &&
        (rank == 0 || m->rows[by[rank - 1]].rank < rank)) {
        *found = 1;
        return rank;
    }
    size_t lo = 0, hi = reg->num_entries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->rows[reg->by_rank[mid]].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < reg->num_entries && m->rows[reg->by_rank[lo]].rank == rank;
    return (uint32_t)lo;
}

const sp_model_row *sp_region_entry(const sp_mpi_region *reg, uint32_t rank) {
    int found;
    uint32_t i = sp_region_entry_index(reg, rank, &found);
    return found ? &reg->owner->m.rows[reg->by_rank[i]] : NULL;
}
