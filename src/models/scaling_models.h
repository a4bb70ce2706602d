/* One model per region of a scaling study (`scaling --model`). */
#ifndef SP_MODELS_SCALING_MODELS_H
#define SP_MODELS_SCALING_MODELS_H

#include "common/error.h"
#include "models/pmnf.h"
#include "scope_profiler/compare.h"

typedef struct sp_scaling_models {
    const sp_scaling *study; /* borrowed */
    sp_pmnf_model *models;   /* study->num_regions, in its order */
    int has_predict;
    double predict; /* the size of --predict */
} sp_scaling_models;

/* Fits every region of `study` (each run one measurement). Errors:
 * SP_ERR_INVALID_ARGUMENT when the runs hold fewer than SP_PMNF_MIN_SIZES
 * sizes (the message says how many more) or a size is not positive. */
sp_scaling_models *sp_scaling_models_fit(const sp_scaling *study, sp_error *err);
void sp_scaling_models_free(sp_scaling_models *m);

void sp_scaling_models_text(sp_textbuf *out, const sp_scaling_models *m);
char *sp_scaling_models_json(const sp_scaling_models *m, const char *const *files, size_t n);
void sp_scaling_models_csv(sp_textbuf *out, const sp_scaling_models *m);

/* A JSON member, null when v is not finite; a CSV field after a comma, empty when not finite. */
struct json_object;
int sp_models_json_number(struct json_object *o, const char *key, double v);
void sp_models_csv_number(sp_textbuf *out, double v);

#endif
