/* sp_mpi_region_source(): a region's call site and captured text. */
#include "analysis/internal.h"

int sp_mpi_region_source(const sp_mpi_region *region, const char **file, int64_t *line,
                         const char **text) {
    *file = *text = "";
    *line = -1;
    if (!region) return 0;
    const sp_model *m = &region->owner->m;
    const sp_model_row *found = NULL;
    for (size_t i = 0; i < region->num_entries; i++) {
        const sp_model_row *row = &m->rows[region->by_rank[i]];
        if (!found && (row->source_file[0] || row->source_line >= 0)) found = row;
        if (row->source_text[0]) { /* the text wins: take the first rank that has one */
            found = row;
            break;
        }
    }
    *file = found ? found->source_file : "";
    *line = found ? found->source_line : -1;
    *text = found ? found->source_text : "";
    return found && found->source_text[0];
}
