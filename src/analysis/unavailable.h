/* The error of questions an aggregate-layout file cannot answer. */
#ifndef SP_ANALYSIS_UNAVAILABLE_H
#define SP_ANALYSIS_UNAVAILABLE_H

#include "analysis/internal.h"

/* Sets err to SP_ERR_UNAVAILABLE explaining that `what` needs per-call events. */
sp_status sp_unavailable(const sp_results *r, const char *what, sp_error *err);

#endif
