/* A region's entry (model row) for one rank: the lookup every layer uses. */
#ifndef SP_ANALYSIS_REGION_ENTRY_H
#define SP_ANALYSIS_REGION_ENTRY_H

#include "analysis/internal.h"

/* The entry of region for rank, or NULL. */
const sp_model_row *sp_region_entry(const sp_mpi_region *region, uint32_t rank);
uint32_t sp_region_entry_index(const sp_mpi_region *region, uint32_t rank, int *found);

#endif
