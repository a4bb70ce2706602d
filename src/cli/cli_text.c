#include "cli/cli_text.h"

#include "common/py_float.h"
#include "common/utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- UTF-8 ---------------------------------------------------------------- */

/* Decodes the code point at s into *cp; returns its length in bytes (a
 * malformed sequence is one byte, U+FFFD). s must not be at the NUL. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp) {
    unsigned char c = s[0];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 1) {
        *cp = c;
        return 1;
    }
    if (len == 0) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = c & (0x3F >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v > 0x10FFFF ? 0xFFFD : v;
    return len;
}

size_t cli_utf8_length(const char *s) {
    size_t n = 0;
    uint32_t cp;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += utf8_decode(p, &cp))
        n++;
    return n;
}

size_t cli_utf8_prefix_bytes(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    uint32_t cp;
    for (size_t i = 0; i < n && *p; i++)
        p += utf8_decode(p, &cp);
    return (size_t)(p - (const unsigned char *)s);
}

/* --- floats --------------------------------------------------------------- */

void cli_float_repr(double v, char out[CLI_FLOAT_REPR_SIZE]) {
    sp_py_float_repr(v, out); /* the library's shortest round-trip repr() */
}

/* --- Python repr of strings ------------------------------------------------ */

void cli_put_str_repr(FILE *out, const char *s) {
    char quote = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    fputc(quote, out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t cp;
        size_t len = utf8_decode(p, &cp);
        if (cp == '\\' || cp == (uint32_t)quote)
            fprintf(out, "\\%c", (char)cp);
        else if (cp == '\n')
            fputs("\\n", out);
        else if (cp == '\r')
            fputs("\\r", out);
        else if (cp == '\t')
            fputs("\\t", out);
        else if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD)
            fprintf(out, "\\x%02x", (unsigned)cp);
        else if ((cp >= 0x200B && cp <= 0x200F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
            fprintf(out, "\\u%04x", (unsigned)cp);
        else
            fwrite(p, 1, len, out);
        p += len;
    }
    fputc(quote, out);
}

void cli_put_list_repr(FILE *out, const char *const *items, size_t n) {
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        cli_put_str_repr(out, items[i]);
    }
    fputc(']', out);
}

/* --- JSON and CSV ----------------------------------------------------------- */

static void put_json_escape(FILE *out, uint32_t cp) {
    switch (cp) {
    case '"':
        fputs("\\\"", out);
        return;
    case '\\':
        fputs("\\\\", out);
        return;
    case '\n':
        fputs("\\n", out);
        return;
    case '\r':
        fputs("\\r", out);
        return;
    case '\t':
        fputs("\\t", out);
        return;
    case '\b':
        fputs("\\b", out);
        return;
    case '\f':
        fputs("\\f", out);
        return;
    default:
        break;
    }
    if (cp >= 0x20 && cp < 0x7F) {
        fputc((int)cp, out);
    } else if (cp < 0x10000) {
        fprintf(out, "\\u%04x", (unsigned)cp);
    } else {
        cp -= 0x10000;
        fprintf(out, "\\u%04x\\u%04x", 0xD800u + (unsigned)(cp >> 10),
                0xDC00u + (unsigned)(cp & 0x3FF));
    }
}

/* Names that are not valid UTF-8 keep their bytes distinct through the
 * private-use escape of common/utf8.h, as in every export. */
void cli_put_json_string(FILE *out, const char *s) {
    size_t len = strlen(s), i = 0;
    fputc('"', out);
    while (i < len)
        put_json_escape(out, sp_utf8_next(s, len, &i));
    fputc('"', out);
}

static void put_utf8(FILE *out, const char *s, int double_quotes) {
    size_t len = strlen(s), i = 0;
    while (i < len) {
        char enc[4];
        uint32_t cp = sp_utf8_next(s, len, &i);
        if (cp == '"' && double_quotes) fputc('"', out);
        fwrite(enc, 1, sp_utf8_encode(cp, enc), out);
    }
}

void cli_put_csv_field(FILE *out, const char *s) {
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote) fputc('"', out);
    put_utf8(out, s, quote);
    if (quote) fputc('"', out);
}
