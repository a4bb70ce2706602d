#include "present/json_print.h"

#include <math.h>

#include "present/json_escape.h"
#include "present/py_float.h"

static void newline_indent(sp_tbuf *out, int level) {
    sp_tbuf_putc(out, '\n');
    sp_tbuf_repeat(out, "  ", (size_t)level);
}

void sp_json_print(sp_tbuf *out, struct json_object *v, int level) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    switch (json_object_get_type(v)) {
    case json_type_null:
        sp_tbuf_append(out, "null");
        break;
    case json_type_boolean:
        sp_tbuf_append(out, json_object_get_boolean(v) ? "true" : "false");
        break;
    case json_type_int:
        sp_tbuf_printf(out, "%lld", (long long)json_object_get_int64(v));
        break;
    case json_type_double: {
        double d = json_object_get_double(v);
        if (!isfinite(d)) {
            sp_tbuf_append(out, "null");
        } else {
            sp_py_float_repr(d, num);
            sp_tbuf_append(out, num);
        }
        break;
    }
    case json_type_string:
        sp_json_escape_n(out, json_object_get_string(v), (size_t)json_object_get_string_len(v));
        break;
    case json_type_array: {
        size_t n = json_object_array_length(v);
        if (!n) {
            sp_tbuf_append(out, "[]");
            break;
        }
        sp_tbuf_putc(out, '[');
        for (size_t i = 0; i < n; i++) {
            if (i) sp_tbuf_putc(out, ',');
            newline_indent(out, level + 1);
            sp_json_print(out, json_object_array_get_idx(v, i), level + 1);
        }
        newline_indent(out, level);
        sp_tbuf_putc(out, ']');
        break;
    }
    case json_type_object: {
        if (!json_object_object_length(v)) {
            sp_tbuf_append(out, "{}");
            break;
        }
        sp_tbuf_putc(out, '{');
        int first = 1;
        json_object_object_foreach(v, key, child) {
            if (!first) sp_tbuf_putc(out, ',');
            first = 0;
            newline_indent(out, level + 1);
            sp_json_escape(out, key);
            sp_tbuf_append(out, ": ");
            sp_json_print(out, child, level + 1);
        }
        newline_indent(out, level);
        sp_tbuf_putc(out, '}');
        break;
    }
    }
}

char *sp_json_document(struct json_object *value) {
    sp_tbuf b = SP_TBUF_INIT;
    sp_json_print(&b, value, 0);
    sp_tbuf_putc(&b, '\n');
    return sp_tbuf_take(&b);
}
