#include "common/py_repr.h"

#include "common/py_float.h"

#include <string.h>

#include "common/utf8.h"

/* Code points outside ASCII that Python's str.isprintable() rejects:
 * Cc, Cf, Zs (other than space), Zl, Zp, Cs, Co and the noncharacters. */
static const uint32_t not_printable[][2] = {
    {0x0080, 0x00A0},   {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},
    {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},
    {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
    {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},   {0xD800, 0xF8FF},
    {0xFDD0, 0xFDEF},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0xFFFE, 0xFFFF},
    {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF},
};

int sp_py_isprintable(uint32_t cp) {
    if (cp < 0x80) return cp >= 0x20 && cp < 0x7F;
    if ((cp & 0xFFFE) == 0xFFFE) return 0; /* U+xFFFE, U+xFFFF in every plane */
    size_t n = sizeof not_printable / sizeof not_printable[0];
    for (size_t i = 0; i < n && not_printable[i][0] <= cp; i++)
        if (cp <= not_printable[i][1]) return 0;
    return 1;
}

void sp_py_str_repr(sp_textbuf *out, const char *s) {
    char quote = '\'';
    if (strchr(s, '\'') && !strchr(s, '"')) quote = '"';
    sp_textbuf_putc(out, quote);
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        int32_t cp;
        size_t used = sp_utf8_decode(p, n, &cp);
        if (cp < 0) {
            sp_textbuf_printf(out, "\\x%02x", p[0]);
        } else if (cp == quote || cp == '\\') {
            sp_textbuf_putc(out, '\\');
            sp_textbuf_putc(out, (char)cp);
        } else if (cp == '\t') {
            sp_textbuf_append(out, "\\t");
        } else if (cp == '\n') {
            sp_textbuf_append(out, "\\n");
        } else if (cp == '\r') {
            sp_textbuf_append(out, "\\r");
        } else if (sp_py_isprintable((uint32_t)cp)) {
            sp_textbuf_append_n(out, (const char *)p, used);
        } else if (cp <= 0xFF) {
            sp_textbuf_printf(out, "\\x%02x", (unsigned)cp);
        } else if (cp <= 0xFFFF) {
            sp_textbuf_printf(out, "\\u%04x", (unsigned)cp);
        } else {
            sp_textbuf_printf(out, "\\U%08x", (unsigned)cp);
        }
        p += used;
        n -= used;
    }
    sp_textbuf_putc(out, quote);
}

void sp_py_str_list_repr(sp_textbuf *out, const char *const *items, size_t n) {
    sp_textbuf_putc(out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) sp_textbuf_append(out, ", ");
        sp_py_str_repr(out, items[i]);
    }
    sp_textbuf_putc(out, ']');
}

void sp_py_float_append(sp_textbuf *out, double x) {
    char text[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(x, text);
    sp_textbuf_append(out, text);
}

void sp_py_u32_list_repr(sp_textbuf *out, const uint32_t *items, size_t n) {
    sp_textbuf_append(out, "[");
    for (size_t i = 0; i < n; i++)
        sp_textbuf_printf(out, i ? ", %u" : "%u", (unsigned)items[i]);
    sp_textbuf_append(out, "]");
}
