#include "common/py_float.h"

#include "common/shortest_double.h"

#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>

/* "00" "01" ... "99": two digits per division when writing integers */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324252627282930"
                                    "31323334353637383940414243444546474849505152535455565758596061"
                                    "62636465666768697071727374757677787980818283848586878889909192"
                                    "93949596979899";

int sp_shortest_digits(double x, char digits[18], int *decpt) {
    sp_decimal d = sp_shortest_decimal(x);
    uint64_t v = d.digits;
    char tmp[20]; /* written from the end, then moved to the front */
    int i = (int)sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        tmp[--i] = two_digits[2 * r + 1];
        tmp[--i] = two_digits[2 * r];
    }
    if (v >= 10) {
        tmp[--i] = two_digits[2 * v + 1];
        tmp[--i] = two_digits[2 * v];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    int n = (int)sizeof tmp - i;
    memcpy(digits, tmp + i, (size_t)n);
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
        /* Python's exponent: a sign and at least two digits (e-07, e+16, e-308) */
        out[k++] = 'e';
        out[k++] = e < 0 ? '-' : '+';
        unsigned a = (unsigned)(e < 0 ? -e : e);
        if (a >= 100) out[k++] = (char)('0' + a / 100);
        out[k++] = two_digits[2 * (a % 100)];
        out[k++] = two_digits[2 * (a % 100) + 1];
        out[k] = '\0';
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
