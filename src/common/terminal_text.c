#include "common/terminal_text.h"

#include <stdint.h>
#include <string.h>

#include "common/utf8.h"

void sp_terminal_append(sp_textbuf *out, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        int32_t cp;
        size_t used = sp_utf8_decode(p, n, &cp);
        if (cp == '\t')
            sp_textbuf_append(out, "\\t");
        else if (cp == '\n')
            sp_textbuf_append(out, "\\n");
        else if (cp == '\r')
            sp_textbuf_append(out, "\\r");
        else if (cp < 0)
            sp_textbuf_printf(out, "\\x%02x", (unsigned)p[0]);
        else if (cp < 0x20 || cp == 0x7F)
            sp_textbuf_printf(out, "\\x%02x", (unsigned)cp);
        else if (cp >= 0x80 && cp <= 0x9F)
            sp_textbuf_printf(out, "\\u%04x", (unsigned)cp);
        else
            sp_textbuf_append_n(out, (const char *)p, used);
        p += used;
        n -= used;
    }
}

char *sp_terminal_text(const char *s) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_terminal_append(&b, s ? s : "");
    if (sp_textbuf_failed(&b)) {
        sp_textbuf_free(&b);
        return NULL;
    }
    return sp_textbuf_take(&b);
}
