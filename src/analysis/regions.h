/* Region selection in get_regions() order. */
#ifndef SP_ANALYSIS_REGIONS_H
#define SP_ANALYSIS_REGIONS_H

#include "analysis/filter.h"

/* Region indices kept by f (NULL = all), in first-start order; *out is malloc'ed. */
sp_status sp_select_regions(const sp_results *r, sp_compiled_filter *f, uint32_t **out, size_t *n,
                            sp_error *err);

#endif
