/*
 * Internal bridge between the model and the public sp_results object.
 */
#ifndef SP_MODEL_RESULTS_MODEL_H
#define SP_MODEL_RESULTS_MODEL_H

#include "common/visibility.h"
#include "model/model.h"

/* Wraps a model into a results object. The model's contents move into the
 * results (m is left zeroed) whether or not this succeeds; NULL with err set
 * when out of memory. */
SP_INTERNAL_API sp_results *sp_results_adopt(sp_model *m, sp_error *err);

/* sp_read() that reads the events of the given ranks only where the file
 * allows it (sp_read_model_ranks); ranks NULL or num_ranks 0: all. The
 * results answer every question restricted to those ranks as sp_read()'s
 * do (run-wide facts such as the time span and the region order come from
 * the stored statistics); questions about other ranks' calls do not. */
SP_INTERNAL_API sp_results *sp_read_ranks(const char *path, const uint32_t *ranks, size_t num_ranks,
                                          sp_error *err);

/* The model behind a results object. */
SP_INTERNAL_API const sp_model *sp_results_model(const sp_results *r);

#endif
