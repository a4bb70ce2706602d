#include "common/decimal_format.h"

#include <string.h>

size_t sp_format_u64(uint64_t v, char *out) {
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t sp_format_i64(int64_t v, char *out) {
    if (v >= 0) return sp_format_u64((uint64_t)v, out);
    out[0] = '-';
    return 1 + sp_format_u64((uint64_t)0 - (uint64_t)v, out + 1);
}

size_t sp_format_scaled(int64_t v, int scale, char *out) {
    size_t n = 0;
    uint64_t mag = (uint64_t)v;
    if (v < 0) {
        out[n++] = '-';
        mag = (uint64_t)0 - mag;
    }
    uint64_t unit = 1;
    for (int i = 0; i < scale; i++)
        unit *= 10;
    n += sp_format_u64(mag / unit, out + n);
    uint64_t frac = mag % unit;
    if (!frac) return n;
    char digits[20];
    int k = scale;
    for (int i = scale - 1; i >= 0; i--) {
        digits[i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    while (k > 0 && digits[k - 1] == '0')
        k--;
    out[n++] = '.';
    memcpy(out + n, digits, (size_t)k);
    return n + (size_t)k;
}
