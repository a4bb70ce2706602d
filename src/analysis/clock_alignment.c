#include "analysis/clock_alignment.h"

#include <stddef.h>

/* The rank's offset (0 when the file has none for it). A short linear search:
 * the table is sorted by rank when our writer made it, but need not be. */
int64_t sp_rank_clock_offset(const sp_model *m, uint32_t rank, size_t *hint) {
    for (size_t k = 0; k < m->num_clock_offsets; k++) {
        size_t i = (*hint + k) % m->num_clock_offsets;
        if (m->clock_offsets[i].rank == rank) {
            *hint = i;
            return m->clock_offsets[i].offset_ns;
        }
    }
    return 0;
}

void sp_align_rank_clocks(sp_model *m) {
    if (!m->num_clock_offsets) return;
    size_t hint = 0;
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *row = &m->rows[i];
        int64_t offset = sp_rank_clock_offset(m, row->rank, &hint);
        if (!offset) continue;
        for (uint64_t e = 0; e < row->count && m->starts; e++)
            m->starts[row->offset + e] += offset;
        row->stats.start_minimum += offset;
        row->stats.end_maximum += offset;
    }
    for (size_t i = 0; i < m->num_threads; i++) {
        int64_t offset = sp_rank_clock_offset(m, m->threads[i].rank, &hint);
        m->threads[i].start_ns += offset;
        m->threads[i].end_ns += offset;
    }
    for (size_t i = 0; i < m->num_forks; i++) { /* compared with the calls' starts */
        int64_t offset = sp_rank_clock_offset(m, m->forks[i].rank, &hint);
        m->forks[i].since_ns += offset;
        m->forks[i].fork_ns += offset;
    }
}
