#include "present/csv_escape.h"

#include <string.h>

void sp_csv_field(sp_textbuf *out, const char *s, int force_quote) {
    if (!force_quote && !strpbrk(s, ",\"\r\n")) {
        sp_textbuf_append(out, s);
        return;
    }
    sp_textbuf_putc(out, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"') sp_textbuf_putc(out, '"');
        sp_textbuf_putc(out, *p);
    }
    sp_textbuf_putc(out, '"');
}
