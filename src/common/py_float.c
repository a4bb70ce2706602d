#include "common/py_float.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits printf's "d.ddde±x" into digits and exponent. */
static int split_exp(const char *s, char digits[18], int *exp10) {
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9') digits[n++] = *s;
    *exp10 = *s == 'e' ? atoi(s + 1) : 0;
    return n;
}

/* Builds "d.ddd" + "e" + exp from n digits for strtod. */
static double read_back(const char *digits, int n, int exp10) {
    char buf[48];
    int k = 0;
    buf[k++] = digits[0];
    buf[k++] = '.';
    for (int i = 1; i < n; i++)
        buf[k++] = digits[i];
    snprintf(buf + k, sizeof buf - (size_t)k, "e%d", exp10);
    return strtod(buf, NULL);
}

/* The p-digit decimal one unit in the last place above or below digits. */
static void step(char digits[18], int n, int *exp10, int up) {
    int i = n - 1;
    if (up) {
        while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
        if (i >= 0) {
            digits[i]++;
        } else { /* 99..9 -> 100..0, one decade up */
            digits[0] = '1';
            for (int j = 1; j < n; j++)
                digits[j] = '0';
            (*exp10)++;
        }
    } else {
        while (i >= 0 && digits[i] == '0')
            digits[i--] = '9';
        if (i < 0) return; /* cannot happen: the leading digit is never 0 */
        digits[i]--;
        if (digits[0] == '0') { /* 100..0 -> 99..9, one decade down */
            for (int j = 0; j < n; j++)
                digits[j] = '9';
            (*exp10)--;
        }
    }
}

int sp_shortest_digits(double x, char digits[18], int *decpt) {
    double ax = fabs(x);
    char buf[48];
    int n = 17, exp10 = 0;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, ax);
        char d[18];
        int e;
        n = split_exp(buf, d, &e);
        double back = read_back(d, n, e);
        if (back != ax) {
            /* The nearest p-digit decimal misses; the rounding interval is
             * asymmetric at powers of two, so its neighbour on the other
             * side of x may still read back as x. */
            step(d, n, &e, back < ax);
            back = read_back(d, n, e);
        }
        if (back == ax || p == 17) {
            memcpy(digits, d, (size_t)n);
            exp10 = e;
            break;
        }
    }
    while (n > 1 && digits[n - 1] == '0')
        n--;
    *decpt = exp10 + 1;
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
