#include <stdio.h>

#include "format/read_internal.h"

void sp_rd_json_string(sp_textbuf *t, const char *s) {
    sp_textbuf_putc(t, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            sp_textbuf_append(t, "\\\"");
            break;
        case '\\':
            sp_textbuf_append(t, "\\\\");
            break;
        case '\n':
            sp_textbuf_append(t, "\\n");
            break;
        case '\r':
            sp_textbuf_append(t, "\\r");
            break;
        case '\t':
            sp_textbuf_append(t, "\\t");
            break;
        default:
            if (*p < 0x20)
                sp_textbuf_printf(t, "\\u%04x", *p);
            else
                sp_textbuf_putc(t, (char)*p);
        }
    }
    sp_textbuf_putc(t, '"');
}
