#include "analysis/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(sp_strbuf *b, size_t extra) {
    if (b->failed) return 0;
    if (b->len + extra + 1 <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->data = grown;
    b->cap = cap;
    return 1;
}

void sp_strbuf_append(sp_strbuf *b, const char *s, size_t n) {
    if (!reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sp_strbuf_puts(sp_strbuf *b, const char *s) {
    sp_strbuf_append(b, s, strlen(s));
}

void sp_strbuf_printf(sp_strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *sp_strbuf_text(const sp_strbuf *b) {
    if (b->data) return b->data;
    return b->failed ? NULL : "";
}

char *sp_strbuf_take(sp_strbuf *b) {
    char *out = NULL;
    if (!b->failed)
        out = b->data ? b->data : calloc(1, 1);
    else
        free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    return out;
}

void sp_strbuf_free(sp_strbuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
