#include "present/run_info.h"

#include <stdlib.h>

#include "present/py_path.h"
#include "common/text_buffer.h"

char *sp_run_default_title(const sp_results *results) {
    const char *path = sp_run_file_path(results);
    char *rel = path ? sp_py_relpath(path) : NULL;
    if (path && !rel) return NULL;
    const char *label = sp_results_label(results);
    size_t ranks = sp_results_num_ranks(results);
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (label) {
        sp_textbuf_append(&b, label);
        sp_textbuf_append(&b, " - ");
    }
    sp_textbuf_append(&b, rel ? rel : "unsaved run");
    sp_textbuf_printf(&b, " (%zu rank%s)", ranks, ranks == 1 ? "" : "s");
    free(rel);
    return sp_textbuf_take(&b);
}

const char *sp_run_file_path(const sp_results *results) {
    const char *path = sp_results_path(results);
    return path && *path ? path : NULL;
}
