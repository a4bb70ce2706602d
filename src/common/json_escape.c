#include "common/json_escape.h"

#include <stdint.h>
#include <string.h>

#include "common/utf8.h"

void sp_json_escape_n(sp_textbuf *out, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    sp_textbuf_putc(out, '"');
    while (n) {
        int32_t cp;
        size_t used = sp_utf8_decode_escaped(p, n, &cp);
        p += used;
        n -= used;
        switch (cp) {
        case '"':
            sp_textbuf_append(out, "\\\"");
            continue;
        case '\\':
            sp_textbuf_append(out, "\\\\");
            continue;
        case '\n':
            sp_textbuf_append(out, "\\n");
            continue;
        case '\r':
            sp_textbuf_append(out, "\\r");
            continue;
        case '\t':
            sp_textbuf_append(out, "\\t");
            continue;
        case '\b':
            sp_textbuf_append(out, "\\b");
            continue;
        case '\f':
            sp_textbuf_append(out, "\\f");
            continue;
        default:
            break;
        }
        if (cp >= 0x20 && cp < 0x7F) {
            sp_textbuf_putc(out, (char)cp);
        } else if (cp <= 0xFFFF) {
            sp_textbuf_printf(out, "\\u%04x", (unsigned)cp);
        } else {
            uint32_t v = (uint32_t)cp - 0x10000;
            sp_textbuf_printf(out, "\\u%04x\\u%04x", 0xD800 + (unsigned)(v >> 10),
                              0xDC00 + (unsigned)(v & 0x3FF));
        }
    }
    sp_textbuf_putc(out, '"');
}

void sp_json_escape(sp_textbuf *out, const char *s) {
    sp_json_escape_n(out, s, strlen(s));
}
