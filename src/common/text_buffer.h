/*
 * A growable, NUL-terminated text buffer (messages, reprs, tables). An allocation
 * failure is sticky: later appends do nothing and sp_textbuf_failed() says so,
 * so callers check once at the end instead of after every append.
 */
#ifndef SP_COMMON_TEXT_BUFFER_H
#define SP_COMMON_TEXT_BUFFER_H

#include <stddef.h>

typedef struct sp_textbuf {
    char *data; /* NUL-terminated once anything was appended; may be NULL */
    size_t len;
    size_t cap;
    int failed; /* an allocation failed */
} sp_textbuf;

#define SP_TEXTBUF_INIT                                                                            \
    { NULL, 0, 0, 0 }

void sp_textbuf_append(sp_textbuf *b, const char *s);
void sp_textbuf_append_n(sp_textbuf *b, const char *s, size_t n);
void sp_textbuf_putc(sp_textbuf *b, char c);
/* Appends s n times. */
void sp_textbuf_repeat(sp_textbuf *b, const char *s, size_t n);
void sp_textbuf_printf(sp_textbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writing in place: room for n more characters at the end (NULL after a
 * failed allocation), then sp_textbuf_advance by what was written (<= n). */
char *sp_textbuf_space(sp_textbuf *b, size_t n);
void sp_textbuf_advance(sp_textbuf *b, size_t n);

/* The text ("" when empty); NULL only after a failed allocation. */
const char *sp_textbuf_str(const sp_textbuf *b);

/* Hands the text over to the caller (free() it) and resets the buffer; NULL
 * after a failed allocation. */
char *sp_textbuf_take(sp_textbuf *b);

void sp_textbuf_reset(sp_textbuf *b); /* empties, keeps the allocation */
void sp_textbuf_free(sp_textbuf *b);

static inline int sp_textbuf_failed(const sp_textbuf *b) {
    return b->failed;
}

#endif
