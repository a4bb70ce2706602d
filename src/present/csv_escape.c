#include "present/csv_escape.h"

#include <stdint.h>
#include <string.h>

#include "common/utf8.h"

/* Appends s with every code point under the escape rule (valid UTF-8 out). */
static void append_utf8(sp_textbuf *out, const char *s, int double_quotes) {
    size_t len = strlen(s), i = 0;
    while (i < len) {
        char enc[4];
        uint32_t cp = sp_utf8_next(s, len, &i);
        if (cp == '"' && double_quotes) sp_textbuf_putc(out, '"');
        sp_textbuf_append_n(out, enc, sp_utf8_encode(cp, enc));
    }
}

void sp_csv_field(sp_textbuf *out, const char *s, int force_quote) {
    if (!force_quote && !strpbrk(s, ",\"\r\n")) {
        append_utf8(out, s, 0);
        return;
    }
    sp_textbuf_putc(out, '"');
    append_utf8(out, s, 1);
    sp_textbuf_putc(out, '"');
}
