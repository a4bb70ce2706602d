/* A growable string for building messages and reprs; failures are sticky. */
#ifndef SP_ANALYSIS_STRBUF_H
#define SP_ANALYSIS_STRBUF_H

#include <stddef.h>

typedef struct sp_strbuf {
    char *data; /* NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
    int failed; /* an allocation failed: data holds what fitted before */
} sp_strbuf;

void sp_strbuf_append(sp_strbuf *b, const char *s, size_t n);
void sp_strbuf_puts(sp_strbuf *b, const char *s);
void sp_strbuf_printf(sp_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text ("" when empty); NULL only after a failed allocation left nothing. */
const char *sp_strbuf_text(const sp_strbuf *b);

/* Hands the buffer to the caller (free() it); NULL on failure. Leaves b empty. */
char *sp_strbuf_take(sp_strbuf *b);

void sp_strbuf_free(sp_strbuf *b);

#endif
