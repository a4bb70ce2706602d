#include "cli/cli_meta.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"
#include "common/py_float.h"

int cli_meta_value_text(const sp_results *run, const char *key, sp_textbuf *out) {
    sp_metadata_item item;
    if (!sp_results_metadata_find(run, key, &item)) return 0;
    char f[SP_PY_FLOAT_REPR_SIZE];
    switch (item.type) {
    case SP_VALUE_INT:
        sp_textbuf_printf(out, "%lld", (long long)item.int_value);
        break;
    case SP_VALUE_FLOAT:
        sp_py_float_repr(item.float_value, f);
        sp_textbuf_append(out, f);
        break;
    case SP_VALUE_STRING:
        sp_textbuf_append(out, item.string_value ? item.string_value : "");
        break;
    default:
        for (size_t i = 0; i < item.list_len; i++) {
            if (i) sp_textbuf_putc(out, ',');
            sp_textbuf_append(out, item.list[i]);
        }
    }
    return 1;
}

int cli_meta_keys(const char *cmd, const char *option, const char *value, cli_list *keys) {
    char *copy = strdup(value);
    if (!copy) return cli_out_of_memory();
    int rc = 0;
    char *save = NULL;
    for (char *k = strtok_r(copy, ",", &save); k && !rc; k = strtok_r(NULL, ",", &save))
        if (!cli_list_add_copy(keys, k)) rc = cli_out_of_memory();
    free(copy);
    if (!rc && !keys->count)
        rc = cli_usage_error(cmd, "--%s needs metadata keys, e.g. --%s problem_size,mesh", option,
                             option);
    return rc;
}

void cli_meta_title_suffix(const sp_results *run, const cli_list *keys, sp_textbuf *out) {
    for (size_t i = 0; i < keys->count; i++) {
        sp_textbuf_printf(out, "%s%s=", i ? ", " : " [", keys->items[i]);
        if (!cli_meta_value_text(run, keys->items[i], out)) sp_textbuf_putc(out, '?');
    }
    if (keys->count) sp_textbuf_putc(out, ']');
}
