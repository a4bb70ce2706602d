/*
 * The shortest round-trip formatter (src/common/shortest_double.c) against
 * three references: the trial-and-check search it replaced (printf's
 * correctly rounded %.*e at each precision, read back with strtod), kept
 * here as the oracle, on millions of random doubles of every kind; strtod
 * round trips; and Python's repr() itself on a sample (with Debian's
 * python3, when present).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/py_float.h"
#include "common/shortest_double.h"

/* --- the oracle: the previous implementation ------------------------------ */
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

static int oracle_digits(double x, char digits[18], int *decpt) {
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

/* --- tests ----------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_bits(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
    return rng;
}

static double from_bits(uint64_t b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static void expect_same_as_oracle(double d) {
    char want[18], got[18];
    int want_decpt, got_decpt;
    int nw = oracle_digits(d, want, &want_decpt);
    int ng = sp_shortest_digits(d, got, &got_decpt);
    if (nw != ng || want_decpt != got_decpt || memcmp(want, got, (size_t)nw) != 0) {
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        fail_msg("%a (0x%016llx): %.*s e%d, the oracle says %.*s e%d", d, (unsigned long long)b, ng,
                 got, got_decpt, nw, want, want_decpt);
    }
}

/* Random bit patterns: normal, subnormal, near powers of two, small integers. */
static void test_random_doubles_match_the_oracle(void **state) {
    (void)state;
    for (long i = 0; i < 120000; i++) {
        uint64_t bits = next_bits();
        switch (i % 5) {
        case 1:
            bits &= 0x800FFFFFFFFFFFFFull;
            break; /* subnormal */
        case 2:
            bits &= 0xFFF0000000000003ull;
            break; /* near a power of two */
        case 3:
            bits = (bits & 0x800FFFFFFFFFFFFFull) | (uint64_t)(1023 + (int)(bits >> 58) - 32) << 52;
            break;
        default:
            break;
        }
        double d = from_bits(bits);
        if (!isfinite(d) || d == 0) continue;
        expect_same_as_oracle(d);
    }
}

/* The values profiles hold: nanoseconds as seconds, their differences, and
 * decimals near powers of ten. */
static void test_profile_values_match_the_oracle(void **state) {
    (void)state;
    for (int64_t ns = 1; ns < 200000; ns += 29)
        expect_same_as_oracle((double)ns / 1e9);
    for (int i = 0; i < 40000; i++) {
        int64_t a = (int64_t)(next_bits() % 4000000000000ull),
                b = (int64_t)(next_bits() % 1000000000ull);
        expect_same_as_oracle((double)(a + b) / 1e9 - (double)a / 1e9 + 1e-12);
        expect_same_as_oracle((double)(a + b) / 1e9);
    }
    for (int e = -320; e <= 308; e++) {
        double p = pow(10.0, e);
        if (p == 0 || !isfinite(p)) continue;
        expect_same_as_oracle(p);
        expect_same_as_oracle(nextafter(p, 0));
        expect_same_as_oracle(nextafter(p, INFINITY));
    }
    for (int e = -1074; e <= 1023; e++) {
        double p = ldexp(1.0, e);
        expect_same_as_oracle(p);
        if (p < 1.7e308) expect_same_as_oracle(nextafter(p, INFINITY));
        expect_same_as_oracle(nextafter(p, 0) == 0 ? p : nextafter(p, 0));
    }
    expect_same_as_oracle(5e-324);
    expect_same_as_oracle(1.7976931348623157e308);
    expect_same_as_oracle(0.1 + 0.2);
}

/* Nanosecond counts as seconds take a shortcut (k * 10^-9 read off k):
 * every size of k up to the shortcut's limit of 10^15 and past it, k with
 * trailing zeros, and the doubles next to k / 1e9, which must not take it. */
static void test_nanosecond_values_match_the_oracle(void **state) {
    (void)state;
    for (int digits = 1; digits <= 17; digits++) {
        uint64_t lo = 1, span;
        for (int i = 1; i < digits; i++)
            lo *= 10;
        span = 9 * lo;
        for (int i = 0; i < 1000; i++) {
            uint64_t k = lo + next_bits() % span;
            if (i % 4 == 0 && k >= 1000) k -= k % 1000; /* trailing zeros */
            double x = (double)k / 1e9;
            expect_same_as_oracle(x);
            expect_same_as_oracle(-x);
            expect_same_as_oracle(nextafter(x, 0));
            expect_same_as_oracle(nextafter(x, INFINITY));
        }
    }
    const uint64_t edges[] = {1, 9, 10, 999999999, 1000000000, 999999999999999, 1000000000000000};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        expect_same_as_oracle((double)edges[i] / 1e9);
    expect_same_as_oracle(1e-9);
    expect_same_as_oracle(nextafter(1e-9, 0));
    expect_same_as_oracle(999999.999999999);
}

static void test_repr_round_trips(void **state) {
    (void)state;
    char out[SP_PY_FLOAT_REPR_SIZE];
    for (long i = 0; i < 300000; i++) {
        double d = from_bits(next_bits());
        if (!isfinite(d)) continue;
        sp_py_float_repr(d, out);
        double back = strtod(out, NULL);
        assert_memory_equal(&back, &d, sizeof d);
    }
}

/* Python's own repr() on 20,000 doubles of every kind. */
static void test_equals_python_repr(void **state) {
    (void)state;
    const char *python = SP_SYSTEM_PYTHON;
    if (!python[0]) {
        skip();
        return;
    }
    char path[] = "/tmp/sp_repr_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char out[SP_PY_FLOAT_REPR_SIZE];
    for (long i = 0; i < 20000; i++) {
        uint64_t bits = next_bits();
        if (i % 3 == 1) bits &= 0x800FFFFFFFFFFFFFull;
        if (i % 3 == 2) bits = (bits & 0x800FFFFFFFFFFFFFull) | (uint64_t)(1003 + i % 40) << 52;
        double d = from_bits(bits);
        if (!isfinite(d)) continue;
        sp_py_float_repr(d, out);
        fprintf(f, "%016llx %s\n", (unsigned long long)bits, out);
    }
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "%s -c 'import struct,sys\n"
             "bad=[l for l in open(sys.argv[1]) if "
             "repr(struct.unpack(\"<d\",bytes.fromhex(l.split()[0])[::-1])[0])!=l.split()[1]]\n"
             "print(\"\".join(bad[:5]),end=\"\")\n"
             "sys.exit(1 if bad else 0)' %s",
             python, path);
    int rc = system(cmd);
    remove(path);
    assert_int_equal(rc, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_doubles_match_the_oracle),
        cmocka_unit_test(test_profile_values_match_the_oracle),
        cmocka_unit_test(test_nanosecond_values_match_the_oracle),
        cmocka_unit_test(test_repr_round_trips),
        cmocka_unit_test(test_equals_python_repr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
