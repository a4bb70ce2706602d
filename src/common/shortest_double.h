/*
 * The shortest decimal that reads back as a given double (the digits
 * Python's repr() and printf("%.17g")-then-trim approaches look for), by the
 * Ryu method (Ulf Adams, PLDI 2018), written here from the paper's
 * description: the double's rounding interval is scaled by a 128-bit
 * approximation of a power of 5 chosen so that integer arithmetic on 64-bit
 * values decides every digit exactly, and digits are removed while the
 * interval still holds a shorter number. Ties between equally short
 * candidates go to the one nearest the value, exact halves to even.
 */
#ifndef SP_COMMON_SHORTEST_DOUBLE_H
#define SP_COMMON_SHORTEST_DOUBLE_H

#include <stdint.h>

/* For finite nonzero x: |x| = digits * 10^exponent with digits having no
 * trailing zeros (1 to 17 decimal digits), as short as possible. */
typedef struct sp_decimal {
    uint64_t digits;
    int exponent;
} sp_decimal;

sp_decimal sp_shortest_decimal(double x);

#endif
