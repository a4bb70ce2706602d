#include "present/json_print.h"

#include <math.h>
#include <string.h>

#include "common/json_escape.h"
#include "common/py_float.h"

size_t sp_json_line_size(int level) {
    return 1 + 2 * (size_t)(level > 0 ? level : 0);
}

char *sp_json_put_line(char *p, int level) {
    size_t n = sp_json_line_size(level);
    *p = '\n';
    memset(p + 1, ' ', n - 1);
    return p + n;
}

static void newline_indent(sp_textbuf *out, int level) {
    char *p = sp_textbuf_space(out, sp_json_line_size(level));
    if (p) sp_textbuf_advance(out, (size_t)(sp_json_put_line(p, level) - p));
}

void sp_json_print_separator(sp_textbuf *out, int first, int level) {
    if (!first) sp_textbuf_putc(out, ',');
    newline_indent(out, level);
}

void sp_json_print_key(sp_textbuf *out, const char *key, int first, int level) {
    sp_json_print_separator(out, first, level);
    sp_json_escape(out, key);
    sp_textbuf_append(out, ": ");
}

void sp_json_print_close(sp_textbuf *out, char close, int empty, int level) {
    if (!empty) newline_indent(out, level);
    sp_textbuf_putc(out, close);
}

void sp_json_print(sp_textbuf *out, struct json_object *v, int level) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    switch (json_object_get_type(v)) {
    case json_type_null:
        sp_textbuf_append(out, "null");
        break;
    case json_type_boolean:
        sp_textbuf_append(out, json_object_get_boolean(v) ? "true" : "false");
        break;
    case json_type_int:
        sp_textbuf_printf(out, "%lld", (long long)json_object_get_int64(v));
        break;
    case json_type_double: {
        double d = json_object_get_double(v);
        if (!isfinite(d)) {
            sp_textbuf_append(out, "null");
        } else {
            sp_py_float_repr(d, num);
            sp_textbuf_append(out, num);
        }
        break;
    }
    case json_type_string:
        sp_json_escape_n(out, json_object_get_string(v), (size_t)json_object_get_string_len(v));
        break;
    case json_type_array: {
        size_t n = json_object_array_length(v);
        if (!n) {
            sp_textbuf_append(out, "[]");
            break;
        }
        sp_textbuf_putc(out, '[');
        for (size_t i = 0; i < n; i++) {
            sp_json_print_separator(out, i == 0, level + 1);
            sp_json_print(out, json_object_array_get_idx(v, i), level + 1);
        }
        sp_json_print_close(out, ']', 0, level);
        break;
    }
    case json_type_object: {
        if (!json_object_object_length(v)) {
            sp_textbuf_append(out, "{}");
            break;
        }
        sp_textbuf_putc(out, '{');
        int first = 1;
        json_object_object_foreach(v, key, child) {
            sp_json_print_key(out, key, first, level + 1);
            first = 0;
            sp_json_print(out, child, level + 1);
        }
        sp_json_print_close(out, '}', 0, level);
        break;
    }
    }
}

char *sp_json_document(struct json_object *value) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_json_print(&b, value, 0);
    sp_textbuf_putc(&b, '\n');
    return sp_textbuf_take(&b);
}
