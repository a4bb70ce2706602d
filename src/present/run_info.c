#include "present/run_info.h"

#include <stdlib.h>

#include "present/py_path.h"
#include "present/tbuf.h"

char *sp_run_default_title(const sp_results *results) {
    const char *path = sp_run_file_path(results);
    char *rel = path ? sp_py_relpath(path) : NULL;
    if (path && !rel) return NULL;
    const char *label = sp_results_label(results);
    size_t ranks = sp_results_num_ranks(results);
    sp_tbuf b = SP_TBUF_INIT;
    if (label) {
        sp_tbuf_append(&b, label);
        sp_tbuf_append(&b, " - ");
    }
    sp_tbuf_append(&b, rel ? rel : "unsaved run");
    sp_tbuf_printf(&b, " (%zu rank%s)", ranks, ranks == 1 ? "" : "s");
    free(rel);
    return sp_tbuf_take(&b);
}

const char *sp_run_file_path(const sp_results *results) {
    const char *path = sp_results_path(results);
    return path && *path ? path : NULL;
}
