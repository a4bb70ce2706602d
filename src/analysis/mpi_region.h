/* A region's pooled statistics over all its ranks (MPIRegion). */
#ifndef SP_ANALYSIS_MPI_REGION_H
#define SP_ANALYSIS_MPI_REGION_H

#include "analysis/internal.h"

/* The region's pooled statistics over all ranks, computed once. */
const sp_pool *sp_region_pooled(const sp_mpi_region *region, sp_error *err);

/* get_summary() fields of a pool (all but exclusive_duration); 0.0 without timing. */
void sp_pool_summary(const sp_pool *p, sp_summary *out);

#endif
