#include <stdlib.h>
#include <string.h>

#include "analysis/results_model.h"
#include "common/error.h"

struct sp_results {
    sp_model m;
};

sp_results *sp_results_adopt(sp_model *m, sp_error *err) {
    sp_results *r = calloc(1, sizeof *r);
    if (!r) {
        sp_model_clear(m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    r->m = *m;
    memset(m, 0, sizeof *m);
    return r;
}

const sp_model *sp_results_model(const sp_results *r) { return &r->m; }

void sp_results_free(sp_results *r) {
    if (!r) return;
    sp_model_clear(&r->m);
    free(r);
}

const char *sp_results_path(const sp_results *r) { return r->m.path; }

size_t sp_results_num_regions(const sp_results *r) { return r->m.num_regions; }
