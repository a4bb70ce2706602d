#include "common/text_buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(sp_textbuf *b, size_t extra) {
    if (b->failed) return 0;
    if (extra > (size_t)-1 / 2 - b->len) goto fail;
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) goto fail;
    b->data = p;
    b->cap = cap;
    return 1;
fail:
    b->failed = 1;
    return 0;
}

void sp_textbuf_append_n(sp_textbuf *b, const char *s, size_t n) {
    if (!reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

char *sp_textbuf_space(sp_textbuf *b, size_t n) {
    return reserve(b, n) ? b->data + b->len : NULL;
}

void sp_textbuf_advance(sp_textbuf *b, size_t n) {
    if (b->failed || !b->data) return;
    b->len += n;
    b->data[b->len] = '\0';
}

void sp_textbuf_append(sp_textbuf *b, const char *s) {
    sp_textbuf_append_n(b, s, strlen(s));
}

void sp_textbuf_putc(sp_textbuf *b, char c) {
    sp_textbuf_append_n(b, &c, 1);
}

void sp_textbuf_repeat(sp_textbuf *b, const char *s, size_t n) {
    size_t len = strlen(s);
    for (size_t i = 0; i < n && !b->failed; i++)
        sp_textbuf_append_n(b, s, len);
}

void sp_textbuf_printf(sp_textbuf *b, const char *fmt, ...) {
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    char small[128];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        sp_textbuf_append_n(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *sp_textbuf_str(const sp_textbuf *b) {
    if (b->failed) return NULL;
    return b->data ? b->data : "";
}

char *sp_textbuf_take(sp_textbuf *b) {
    char *out = NULL;
    if (!b->failed) {
        out = b->data ? b->data : strdup("");
        b->data = NULL;
    }
    sp_textbuf_free(b);
    return out;
}

void sp_textbuf_reset(sp_textbuf *b) {
    b->len = 0;
    b->failed = 0;
    if (b->data) b->data[0] = '\0';
}

void sp_textbuf_free(sp_textbuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
