#include "model/results_model.h"
#include "common/error.h"
#include "format/reader.h"

sp_results *sp_read(const char *path, sp_error *err) {
    return sp_read_ranks(path, NULL, 0, err);
}

static sp_results *adopt_read(const char *path, const uint32_t *ranks, size_t num_ranks, int stream,
                              sp_error *err) {
    sp_model m;
    sp_status st = stream ? sp_read_model_streamed(path, &m, err)
                          : sp_read_model_ranks(path, ranks, num_ranks, &m, err);
    if (st) return NULL;
    m.path = sp_strdup(path);
    if (!m.path) {
        sp_model_clear(&m);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory while reading", path);
        return NULL;
    }
    return sp_results_adopt(&m, err);
}

sp_results *sp_read_ranks(const char *path, const uint32_t *ranks, size_t num_ranks,
                          sp_error *err) {
    return adopt_read(path, ranks, num_ranks, 0, err);
}

sp_results *sp_read_streamed(const char *path, sp_error *err) {
    return adopt_read(path, NULL, 0, 1, err);
}
