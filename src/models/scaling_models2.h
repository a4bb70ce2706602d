/* Two-parameter models per region (`scaling --model --x P,N`). */
#ifndef SP_MODELS_SCALING_MODELS2_H
#define SP_MODELS_SCALING_MODELS2_H

#include "common/error.h"
#include "models/pmnf2.h"
#include "scope_profiler/compare.h"

typedef struct sp_scaling_models2 {
    const sp_scaling *p_study; /* borrowed: the runs along the first parameter */
    const sp_scaling *n_study; /* borrowed: the same runs along the second */
    sp_pmnf2_model *models;    /* p_study->num_regions, in its order */
    int has_predict;
    double predict_p, predict_n;
} sp_scaling_models2;

/* Fits every region (each run one measurement at (p, n)). Errors:
 * SP_ERR_INVALID_ARGUMENT when the runs' grid is too small (the message
 * says which measurements to add) or a value is not positive. */
sp_scaling_models2 *sp_scaling_models2_fit(const sp_scaling *p_study, const sp_scaling *n_study,
                                           sp_error *err);
void sp_scaling_models2_free(sp_scaling_models2 *m);

void sp_scaling_models2_text(sp_textbuf *out, const sp_scaling_models2 *m);
char *sp_scaling_models2_json(const sp_scaling_models2 *m, const char *const *files, size_t n);
void sp_scaling_models2_csv(sp_textbuf *out, const sp_scaling_models2 *m);

#endif
