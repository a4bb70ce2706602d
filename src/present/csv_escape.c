#include "present/csv_escape.h"

#include <string.h>

void sp_csv_field(sp_tbuf *out, const char *s, int force_quote) {
    if (!force_quote && !strpbrk(s, ",\"\r\n")) {
        sp_tbuf_append(out, s);
        return;
    }
    sp_tbuf_putc(out, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"') sp_tbuf_putc(out, '"');
        sp_tbuf_putc(out, *p);
    }
    sp_tbuf_putc(out, '"');
}
