/* JSON values shared by the JSON exports: strings and run-metadata values. */
#include <math.h>
#include <stdlib.h>

#include "common/py_float.h"
#include "export/formats.h"
#include "export/names.h"

int sp_sink_json_string(sp_sink *s, const char *text) {
    char *lit = sp_json_literal(text);
    if (!lit) return 0;
    sp_sink_puts(s, lit);
    free(lit);
    return 1;
}

void sp_sink_json_meta_value(sp_sink *s, const sp_metadata_item *it, int *ok) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    switch (it->type) {
    case SP_VALUE_INT:
        sp_sink_i64(s, it->int_value);
        break;
    case SP_VALUE_FLOAT:
        if (isfinite(it->float_value)) {
            sp_py_float_repr(it->float_value, num);
            sp_sink_puts(s, num);
        } else {
            sp_sink_puts(s, "null");
        }
        break;
    case SP_VALUE_STRING:
        *ok &= sp_sink_json_string(s, it->string_value);
        break;
    case SP_VALUE_STRING_LIST:
        sp_sink_putc(s, '[');
        for (size_t i = 0; i < it->list_len; i++) {
            if (i) sp_sink_putc(s, ',');
            *ok &= sp_sink_json_string(s, it->list[i]);
        }
        sp_sink_putc(s, ']');
        break;
    }
}
