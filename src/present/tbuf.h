/*
 * A growable, NUL-terminated text buffer for the presenters. An allocation
 * failure is sticky: later appends do nothing and sp_tbuf_failed() says so,
 * so callers check once at the end instead of after every append.
 */
#ifndef SP_PRESENT_TBUF_H
#define SP_PRESENT_TBUF_H

#include <stddef.h>

typedef struct sp_tbuf {
    char *data; /* NUL-terminated once anything was appended; may be NULL */
    size_t len;
    size_t cap;
    int failed; /* an allocation failed */
} sp_tbuf;

#define SP_TBUF_INIT                                                                               \
    { NULL, 0, 0, 0 }

void sp_tbuf_append(sp_tbuf *b, const char *s);
void sp_tbuf_append_n(sp_tbuf *b, const char *s, size_t n);
void sp_tbuf_putc(sp_tbuf *b, char c);
/* Appends s n times. */
void sp_tbuf_repeat(sp_tbuf *b, const char *s, size_t n);
void sp_tbuf_printf(sp_tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text ("" when empty); NULL only after a failed allocation. */
const char *sp_tbuf_str(const sp_tbuf *b);

/* Hands the text over to the caller (free() it) and resets the buffer; NULL
 * after a failed allocation. */
char *sp_tbuf_take(sp_tbuf *b);

void sp_tbuf_reset(sp_tbuf *b); /* empties, keeps the allocation */
void sp_tbuf_free(sp_tbuf *b);

static inline int sp_tbuf_failed(const sp_tbuf *b) {
    return b->failed;
}

#endif
