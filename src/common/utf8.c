#include "common/utf8.h"

#include <string.h>

size_t sp_utf8_decode(const unsigned char *s, size_t n, int32_t *cp) {
    unsigned char c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        *cp = -1;
        return 1;
    }
    if (n < len) {
        *cp = -1;
        return 1;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = -1;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = -1;
        return 1;
    }
    *cp = (int32_t)v;
    return len;
}

size_t sp_utf8_encode(uint32_t cp, char *out) {
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    } else if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t sp_utf8_length(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), count = 0;
    while (n) {
        int32_t cp;
        size_t used = sp_utf8_decode(p, n, &cp);
        p += used;
        n -= used;
        count++;
    }
    return count;
}

size_t sp_utf8_decode_escaped(const unsigned char *s, size_t n, int32_t *cp) {
    size_t used = sp_utf8_decode(s, n, cp);
    if (*cp < 0 || sp_utf8_is_escape((uint32_t)*cp)) {
        *cp = (int32_t)(SP_UTF8_ESCAPE_BASE + s[0]);
        return 1;
    }
    return used;
}

uint32_t sp_utf8_next(const char *s, size_t len, size_t *i) {
    int32_t cp;
    *i += sp_utf8_decode_escaped((const unsigned char *)s + *i, len - *i, &cp);
    return (uint32_t)cp;
}
