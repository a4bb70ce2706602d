/* The MPI wrappers' byte counts (/scope_profiler_c/message_bytes), per row. */
#include "analysis/internal.h"

int64_t sp_rank_region_message_bytes(const sp_rank_region *rr) {
    const sp_model_row *row = &sp_rr_owner(rr)->m.rows[rr->row];
    return row->has_message_bytes ? row->message_bytes : -1;
}

int64_t sp_mpi_region_message_bytes(const sp_mpi_region *reg) {
    int64_t total = -1;
    for (size_t i = 0; i < reg->num_entries; i++) {
        const sp_model_row *row = &reg->owner->m.rows[reg->entries[i]];
        if (!row->has_message_bytes) continue;
        total = (total < 0 ? 0 : total) + row->message_bytes;
    }
    return total;
}
