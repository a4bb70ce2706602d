/*
 * Python's repr() of a float, which json.dump also uses: the shortest digit
 * string that reads back as the same double (ties: the one nearest the
 * value), positional when 1e-4 <= |x| < 1e16 and scientific otherwise, with
 * at least two exponent digits, and ".0" on positional integral values:
 * 0.0, -0.0, 2.0, 1e-05, 5.736e-06, 1e+16, 0.30000000000000004.
 */
#ifndef SP_COMMON_PY_FLOAT_H
#define SP_COMMON_PY_FLOAT_H

#include <stddef.h>

/* Room for any result, NUL included ("-2.2250738585072014e-308" is 24). */
#define SP_PY_FLOAT_REPR_SIZE 32

/* Writes repr(x) into out and returns its length. NaN and infinities give
 * "nan", "inf", "-inf" as in Python. */
size_t sp_py_float_repr(double x, char out[SP_PY_FLOAT_REPR_SIZE]);

/* The shortest round-trip digits of |x| (x finite, nonzero): digits[0..n)
 * without leading or trailing zeros, and the decimal point position decpt
 * (|x| = 0.d1d2... * 10^decpt). Returns n (1 to 17). */
int sp_shortest_digits(double x, char digits[18], int *decpt);

#endif
