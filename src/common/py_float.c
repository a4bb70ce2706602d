#include "common/py_float.h"

#include "common/shortest_double.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

int sp_shortest_digits(double x, char digits[18], int *decpt) {
    sp_decimal d = sp_shortest_decimal(x);
    char tmp[20];
    int n = 0;
    for (uint64_t v = d.digits; v; v /= 10)
        tmp[n++] = (char)('0' + v % 10);
    for (int i = 0; i < n; i++)
        digits[i] = tmp[n - 1 - i];
    *decpt = d.exponent + n;
    return n;
}

size_t sp_py_float_repr(double x, char out[SP_PY_FLOAT_REPR_SIZE]) {
    if (isnan(x)) return (size_t)snprintf(out, SP_PY_FLOAT_REPR_SIZE, "nan");
    if (isinf(x)) return (size_t)snprintf(out, SP_PY_FLOAT_REPR_SIZE, x < 0 ? "-inf" : "inf");
    if (x == 0) return (size_t)snprintf(out, SP_PY_FLOAT_REPR_SIZE, signbit(x) ? "-0.0" : "0.0");
    char d[18];
    int decpt;
    int n = sp_shortest_digits(x, d, &decpt);
    size_t k = 0;
    if (signbit(x)) out[k++] = '-';
    if (decpt <= -4 || decpt > 16) {
        out[k++] = d[0];
        if (n > 1) {
            out[k++] = '.';
            for (int i = 1; i < n; i++)
                out[k++] = d[i];
        }
        int e = decpt - 1;
        k += (size_t)snprintf(out + k, SP_PY_FLOAT_REPR_SIZE - k, "e%c%02d", e < 0 ? '-' : '+',
                              e < 0 ? -e : e);
        return k;
    }
    if (decpt <= 0) {
        out[k++] = '0';
        out[k++] = '.';
        for (int i = 0; i < -decpt; i++)
            out[k++] = '0';
        for (int i = 0; i < n; i++)
            out[k++] = d[i];
    } else if (decpt < n) {
        for (int i = 0; i < n; i++) {
            if (i == decpt) out[k++] = '.';
            out[k++] = d[i];
        }
    } else {
        for (int i = 0; i < n; i++)
            out[k++] = d[i];
        for (int i = n; i < decpt; i++)
            out[k++] = '0';
        out[k++] = '.';
        out[k++] = '0';
    }
    out[k] = '\0';
    return k;
}
