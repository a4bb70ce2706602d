#include "cli/cli_source.h"

#include <string.h>

#include "analysis/results_model.h"

int cli_region_source(const sp_results *r, const char *name, cli_source *out) {
    const sp_model *m = sp_results_model(r);
    long region = sp_results_find(r, name);
    if (!m || region < 0) return 0;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *row = &m->rows[i];
        if (row->region != (uint32_t)region || !row->source_text || !row->source_text[0]) continue;
        out->file = row->source_file ? row->source_file : "";
        out->line = row->source_line;
        out->text = row->source_text;
        return 1;
    }
    return 0;
}
