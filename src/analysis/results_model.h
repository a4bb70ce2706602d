/*
 * Internal bridge between the model and the public sp_results object.
 */
#ifndef SP_ANALYSIS_RESULTS_MODEL_H
#define SP_ANALYSIS_RESULTS_MODEL_H

#include "common/visibility.h"
#include "model/model.h"

/* Wraps a model into a results object. The model's contents move into the
 * results (m is left zeroed) whether or not this succeeds; NULL with err set
 * when out of memory. */
SP_INTERNAL_API sp_results *sp_results_adopt(sp_model *m, sp_error *err);

/* The model behind a results object. */
SP_INTERNAL_API const sp_model *sp_results_model(const sp_results *r);

#endif
