/* sp_scaling_models_fit(): the runs of a scaling study as model measurements. */
#include <math.h>
#include <stdlib.h>

#include "models/scaling_models.h"

static sp_status too_few(const sp_scaling *s, sp_error *err) {
    return sp_error_set(
        err, SP_ERR_INVALID_ARGUMENT,
        "a model needs runs at %d or more different %s values, these runs have %zu; "
        "add runs at %zu more (repetitions at one size do not count)",
        SP_PMNF_MIN_SIZES, s->x_name, s->num_x, (size_t)SP_PMNF_MIN_SIZES - s->num_x);
}

sp_scaling_models *sp_scaling_models_fit(const sp_scaling *s, sp_error *err) {
    if (s->num_x < SP_PMNF_MIN_SIZES) {
        too_few(s, err);
        return NULL;
    }
    if (!(s->xs[0] > 0.0)) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                     "a model needs positive %s values; a run has %s = %g", s->x_name, s->x_name,
                     s->xs[0]);
        return NULL;
    }
    sp_scaling_models *m = calloc(1, sizeof *m);
    if (m) m->models = calloc(s->num_regions ? s->num_regions : 1, sizeof *m->models);
    if (!m || !m->models) {
        free(m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    m->study = s;
    for (size_t i = 0; i < s->num_regions; i++) {
        sp_status st = sp_pmnf_fit(s->run_x, s->regions[i].run_times, s->num_runs, &m->models[i]);
        /* a region without calls at some sizes keeps num_sizes < 5: it is shown unmodelled */
        if (st == SP_ERR_OUT_OF_MEMORY) {
            sp_scaling_models_free(m);
            sp_error_set(err, st, "out of memory");
            return NULL;
        }
    }
    return m;
}

void sp_scaling_models_free(sp_scaling_models *m) {
    if (!m) return;
    free(m->models);
    free(m);
}
