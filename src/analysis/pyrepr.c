#include "analysis/pyrepr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t sp_utf8_next(const char *s, size_t len, size_t *i) {
    const unsigned char *u = (const unsigned char *)s + *i;
    size_t left = len - *i;
    unsigned char c = u[0];
    size_t need = c < 0x80             ? 0
                  : (c & 0xE0) == 0xC0 ? 1
                  : (c & 0xF0) == 0xE0 ? 2
                  : (c & 0xF8) == 0xF0 ? 3
                                       : 4;
    if (need == 0) {
        *i += 1;
        return c;
    }
    if (need == 4 || need >= left) {
        *i += 1;
        return 0xFFFD;
    }
    uint32_t cp = c & (0x3F >> need);
    for (size_t k = 1; k <= need; k++) {
        if ((u[k] & 0xC0) != 0x80) {
            *i += 1;
            return 0xFFFD;
        }
        cp = (cp << 6) | (u[k] & 0x3F);
    }
    static const uint32_t min_for[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min_for[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        *i += 1;
        return 0xFFFD;
    }
    *i += need + 1;
    return cp;
}

/* Python's str.isprintable() for the code points that matter in practice:
 * controls, separators other than the space, format characters, private use. */
static int py_printable(uint32_t cp) {
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD) return 0;
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F)) return 0;
    if ((cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF) return 0;
    if ((cp >= 0xE000 && cp <= 0xF8FF) || (cp >= 0xFFF9 && cp <= 0xFFFB)) return 0;
    if (cp >= 0xF0000) return 0; /* supplementary private use planes */
    return 1;
}

static void append_escape(sp_strbuf *b, uint32_t cp) {
    if (cp < 0x100)
        sp_strbuf_printf(b, "\\x%02x", (unsigned)cp);
    else if (cp < 0x10000)
        sp_strbuf_printf(b, "\\u%04x", (unsigned)cp);
    else
        sp_strbuf_printf(b, "\\U%08x", (unsigned)cp);
}

static void append_utf8(sp_strbuf *b, uint32_t cp) {
    char out[4];
    size_t n;
    if (cp < 0x80) {
        out[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    sp_strbuf_append(b, out, n);
}

void sp_py_repr_str(sp_strbuf *b, const char *s) {
    if (!s) s = "";
    char quote = (strchr(s, '\'') && !strchr(s, '"')) ? '"' : '\'';
    size_t len = strlen(s), i = 0;
    sp_strbuf_append(b, &quote, 1);
    while (i < len) {
        uint32_t cp = sp_utf8_next(s, len, &i);
        if (cp == '\\' || cp == (uint32_t)quote) {
            char esc[2] = {'\\', (char)cp};
            sp_strbuf_append(b, esc, 2);
        } else if (cp == '\n')
            sp_strbuf_puts(b, "\\n");
        else if (cp == '\r')
            sp_strbuf_puts(b, "\\r");
        else if (cp == '\t')
            sp_strbuf_puts(b, "\\t");
        else if (!py_printable(cp))
            append_escape(b, cp);
        else
            append_utf8(b, cp);
    }
    sp_strbuf_append(b, &quote, 1);
}

void sp_py_repr_str_list(sp_strbuf *b, const char *const *items, size_t n) {
    sp_strbuf_puts(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) sp_strbuf_puts(b, ", ");
        sp_py_repr_str(b, items[i]);
    }
    sp_strbuf_puts(b, "]");
}

void sp_py_repr_u32_list(sp_strbuf *b, const uint32_t *items, size_t n) {
    sp_strbuf_puts(b, "[");
    for (size_t i = 0; i < n; i++)
        sp_strbuf_printf(b, i ? ", %u" : "%u", (unsigned)items[i]);
    sp_strbuf_puts(b, "]");
}

/* Shortest "%.*e" rendering of x that reads back exactly; returns the precision. */
static int shortest_digits(double x, char *buf, size_t size) {
    for (int p = 0; p < 17; p++) {
        snprintf(buf, size, "%.*e", p, x);
        if (strtod(buf, NULL) == x) return p;
    }
    snprintf(buf, size, "%.16e", x);
    return 16;
}

void sp_py_repr_float(sp_strbuf *b, double x) {
    if (isnan(x) || isinf(x)) {
        sp_strbuf_puts(b, isnan(x) ? "nan" : x < 0 ? "-inf" : "inf");
        return;
    }
    char sci[40], digits[24];
    shortest_digits(x, sci, sizeof sci);
    const char *p = sci;
    if (*p == '-') {
        sp_strbuf_puts(b, "-");
        p++;
    }
    size_t nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = '\0';
    int exp10 = atoi(p + 1);
    if (x == 0.0) exp10 = 0;
    if (exp10 < -4 || exp10 >= 16) {
        sp_strbuf_append(b, digits, 1);
        if (nd > 1) {
            sp_strbuf_puts(b, ".");
            sp_strbuf_append(b, digits + 1, nd - 1);
        }
        sp_strbuf_printf(b, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
    } else if (exp10 < 0) {
        sp_strbuf_puts(b, "0.");
        for (int k = 0; k < -exp10 - 1; k++)
            sp_strbuf_puts(b, "0");
        sp_strbuf_append(b, digits, nd);
    } else {
        size_t int_digits = (size_t)exp10 + 1;
        for (size_t k = 0; k < int_digits; k++)
            sp_strbuf_append(b, k < nd ? &digits[k] : "0", 1);
        sp_strbuf_puts(b, ".");
        if (nd > int_digits)
            sp_strbuf_append(b, digits + int_digits, nd - int_digits);
        else
            sp_strbuf_puts(b, "0");
    }
}
