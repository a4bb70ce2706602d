#include "common/markup_escape.h"

#include <stdint.h>
#include <string.h>

#include "common/json_escape.h"
#include "common/utf8.h"

void sp_markup_escape_n(sp_textbuf *out, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    while (n) {
        int32_t cp;
        size_t used = sp_utf8_decode_escaped(p, n, &cp);
        const char *entity = NULL;
        switch (cp) {
        case '&':
            entity = "&amp;";
            break;
        case '<':
            entity = "&lt;";
            break;
        case '>':
            entity = "&gt;";
            break;
        case '"':
            entity = "&quot;";
            break;
        case '\'':
            entity = "&#39;";
            break;
        case '\n':
            entity = "&#10;";
            break;
        case '\t':
            entity = "&#9;";
            break;
        default:
            break;
        }
        if (entity)
            sp_textbuf_append(out, entity);
        else if (cp < 0x20 || cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF)
            sp_textbuf_append(out, "\xEF\xBF\xBD"); /* U+FFFD */
        else if (sp_utf8_is_escape((uint32_t)cp)) {
            char esc[4];
            sp_textbuf_append_n(out, esc, sp_utf8_encode((uint32_t)cp, esc));
        } else
            sp_textbuf_append_n(out, (const char *)p, used);
        p += used;
        n -= used;
    }
}

void sp_markup_escape(sp_textbuf *out, const char *s) {
    sp_markup_escape_n(out, s, strlen(s));
}

void sp_script_json_string(sp_textbuf *out, const char *s) {
    sp_textbuf tmp = SP_TEXTBUF_INIT;
    sp_json_escape(&tmp, s);
    const char *j = sp_textbuf_str(&tmp);
    if (!j) {
        out->failed = 1;
        sp_textbuf_free(&tmp);
        return;
    }
    for (; *j; j++) {
        if (*j == '<')
            sp_textbuf_append(out, "\\u003c");
        else if (*j == '>')
            sp_textbuf_append(out, "\\u003e");
        else if (*j == '&')
            sp_textbuf_append(out, "\\u0026");
        else
            sp_textbuf_putc(out, *j);
    }
    sp_textbuf_free(&tmp);
}
