#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"

static int reserve(sp_text *t, size_t extra) {
    if (t->failed) return 0;
    if (extra < t->cap - t->len) return 1;
    if (extra > SIZE_MAX / 2 - t->len) {
        t->failed = 1;
        return 0;
    }
    size_t cap = t->cap ? t->cap : 64;
    while (cap - t->len <= extra)
        cap *= 2;
    char *grown = realloc(t->data, cap);
    if (!grown) {
        t->failed = 1;
        return 0;
    }
    t->data = grown;
    t->cap = cap;
    return 1;
}

void sp_text_append(sp_text *t, const char *s, size_t n) {
    if (!reserve(t, n)) return;
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void sp_text_printf(sp_text *t, const char *fmt, ...) {
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        sp_text_append(t, small, (size_t)n);
        return;
    }
    if (!reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void sp_text_json_string(sp_text *t, const char *s) {
    sp_text_append(t, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            sp_text_append(t, "\\\"", 2);
            break;
        case '\\':
            sp_text_append(t, "\\\\", 2);
            break;
        case '\n':
            sp_text_append(t, "\\n", 2);
            break;
        case '\r':
            sp_text_append(t, "\\r", 2);
            break;
        case '\t':
            sp_text_append(t, "\\t", 2);
            break;
        default:
            if (*p < 0x20)
                sp_text_printf(t, "\\u%04x", *p);
            else
                sp_text_append(t, (const char *)p, 1);
        }
    }
    sp_text_append(t, "\"", 1);
}

char *sp_text_take(sp_text *t) {
    char *data = t->failed ? NULL : t->data;
    if (t->failed) free(t->data);
    if (data == NULL && !t->failed) data = calloc(1, 1);
    memset(t, 0, sizeof *t);
    return data;
}
