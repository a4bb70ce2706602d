/* Building the results object from its model (the top layer). */
#ifndef SP_ANALYSIS_RESULTS_BUILD_H
#define SP_ANALYSIS_RESULTS_BUILD_H

#include "analysis/internal.h"

/* Derives rows, regions, ranks and order from r->m (results_build.c); frees them. */
sp_status sp_results_build(sp_results *r);
void sp_results_build_free(sp_results *r);

#endif
