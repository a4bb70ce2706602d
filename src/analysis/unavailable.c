#include "analysis/unavailable.h"

#include "common/error.h"

sp_status sp_unavailable(const sp_results *r, const char *what, sp_error *err) {
    return sp_error_set(err, SP_ERR_UNAVAILABLE,
                        "%s holds aggregate statistics only (storage_layout \"aggregate\"): "
                        "%s need per-call events",
                        r->path_text, what);
}
