#include "analysis/results_model.h"
#include "common/error.h"
#include "format/reader.h"

sp_results *sp_read(const char *path, sp_error *err) {
    sp_model m;
    if (sp_read_model(path, &m, err)) return NULL;
    m.path = sp_strdup(path);
    if (!m.path) {
        sp_model_clear(&m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory while reading", path);
        return NULL;
    }
    return sp_results_adopt(&m, err);
}
