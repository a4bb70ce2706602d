#include "common/shortest_double.h"

#include <pthread.h>
#include <string.h>

#define MANTISSA_BITS  52
#define EXPONENT_BITS  11
#define EXPONENT_BIAS  1023
#define POW5_BITS      125 /* precision of the power-of-5 multipliers */
#define POW5_TABLE     326 /* 5^i for the negative binary exponents */
#define POW5_INV_TABLE 342 /* 2^k / 5^q for the positive ones */

typedef unsigned __int128 u128;

/* Top POW5_BITS bits of 5^i, and floor(2^(bits(5^q) - 1 + POW5_BITS) / 5^q) + 1.
 * Computed once, exactly, with a small big-integer helper below. */
static u128 pow5[POW5_TABLE], pow5_inv[POW5_INV_TABLE];

/* --- table construction: little-endian 32-bit limbs --------------------- */
#define LIMBS 32 /* 5^341 needs 793 bits, 2^917 needs 918: both fit in 1024 */

typedef struct big {
    uint32_t limb[LIMBS];
} big;

static void big_mul_small(big *a, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)a->limb[i] * m + carry;
        a->limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

static int big_bit_length(const big *a) {
    for (int i = LIMBS - 1; i >= 0; i--)
        if (a->limb[i]) return i * 32 + 32 - __builtin_clz(a->limb[i]);
    return 0;
}

static int big_bit(const big *a, int pos) {
    return pos >= 0 && ((a->limb[pos / 32] >> (pos % 32)) & 1);
}

static void big_shl1(big *a, int carry_in) {
    for (int i = 0; i < LIMBS; i++) {
        uint32_t out = a->limb[i] >> 31;
        a->limb[i] = a->limb[i] << 1 | (uint32_t)carry_in;
        carry_in = (int)out;
    }
}

static int big_ge(const big *a, const big *b) {
    for (int i = LIMBS - 1; i >= 0; i--)
        if (a->limb[i] != b->limb[i]) return a->limb[i] > b->limb[i];
    return 1;
}

static void big_sub(big *a, const big *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)a->limb[i] - b->limb[i] - borrow;
        a->limb[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
}

/* ceil(log2(5^e)) for e >= 1, and 1 for e = 0: the bit length of 5^e. */
static int pow5_bits(int e) {
    return (int)(((uint32_t)e * 1217359u) >> 19) + 1;
}

/* floor(2^n / d) for a quotient below 2^128, by restoring division. */
static u128 big_pow2_div(int n, const big *d) {
    big r;
    memset(&r, 0, sizeof r);
    u128 q = 0;
    for (int pos = n; pos >= 0; pos--) {
        big_shl1(&r, pos == n);
        q <<= 1;
        if (big_ge(&r, d)) {
            big_sub(&r, d);
            q |= 1;
        }
    }
    return q;
}

static void build_tables(void) {
    big p;
    memset(&p, 0, sizeof p);
    p.limb[0] = 1;
    for (int i = 0; i < POW5_INV_TABLE; i++) {
        int len = big_bit_length(&p);
        if (i < POW5_TABLE) {
            u128 v = 0;
            for (int b = len - 1; b >= len - POW5_BITS; b--)
                v = v << 1 | (u128)big_bit(&p, b);
            pow5[i] = v;
        }
        pow5_inv[i] = big_pow2_div(pow5_bits(i) - 1 + POW5_BITS, &p) + 1;
        big_mul_small(&p, 5);
    }
}

/* --- the conversion ------------------------------------------------------ */

static int log10_pow2(int e) { /* floor(log10(2^e)), 0 <= e <= 1650 */
    return (int)(((uint32_t)e * 78913u) >> 18);
}

static int log10_pow5(int e) { /* floor(log10(5^e)), 0 <= e <= 2620 */
    return (int)(((uint32_t)e * 732923u) >> 20);
}

static int pow5_factor(uint64_t v) {
    int n = 0;
    while (v % 5 == 0) {
        v /= 5;
        n++;
    }
    return n;
}

static int multiple_of_pow5(uint64_t v, int p) {
    return pow5_factor(v) >= p;
}

static int multiple_of_pow2(uint64_t v, int p) {
    return p < 64 && (v & ((UINT64_C(1) << p) - 1)) == 0;
}

/* (m * mul) >> j for 64 <= j, with the 192-bit product's upper part. */
static uint64_t mul_shift(uint64_t m, u128 mul, int j) {
    u128 low = (u128)m * (uint64_t)mul;
    u128 high = (u128)m * (uint64_t)(mul >> 64);
    return (uint64_t)(((low >> 64) + high) >> (j - 64));
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static sp_decimal ryu_decimal(double x) {
    pthread_once(&tables_once, build_tables);
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    uint64_t ieee_mantissa = bits & ((UINT64_C(1) << MANTISSA_BITS) - 1);
    int ieee_exponent = (int)((bits >> MANTISSA_BITS) & ((1u << EXPONENT_BITS) - 1));

    /* x = m2 * 2^e2; the interval of reals rounding to x, times 4, is
     * [4 m2 - 1 - mm_shift, 4 m2 + 2] (halfway points; narrower below a
     * power of two). */
    int e2;
    uint64_t m2;
    if (ieee_exponent == 0) {
        e2 = 1 - EXPONENT_BIAS - MANTISSA_BITS - 2;
        m2 = ieee_mantissa;
    } else {
        e2 = ieee_exponent - EXPONENT_BIAS - MANTISSA_BITS - 2;
        m2 = (UINT64_C(1) << MANTISSA_BITS) | ieee_mantissa;
    }
    int accept_bounds = (m2 & 1) == 0; /* round-half-even reads the bounds back as x */
    uint64_t mv = 4 * m2;
    uint64_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;

    /* vr, vp, vm: the value and the interval's ends scaled by 10^-e10,
     * truncated; the flags say whether truncation dropped only zeros. */
    uint64_t vr, vp, vm;
    int e10;
    int vm_trailing_zeros = 0, vr_trailing_zeros = 0;
    if (e2 >= 0) {
        int q = log10_pow2(e2) - (e2 > 3);
        e10 = q;
        int k = POW5_BITS + pow5_bits(q) - 1;
        int i = -e2 + q + k;
        vr = mul_shift(4 * m2, pow5_inv[q], i);
        vp = mul_shift(4 * m2 + 2, pow5_inv[q], i);
        vm = mul_shift(4 * m2 - 1 - mm_shift, pow5_inv[q], i);
        if (q <= 21) {
            /* Only here can the scaled values be exact integers. */
            if (mv % 5 == 0)
                vr_trailing_zeros = multiple_of_pow5(mv, q);
            else if (accept_bounds)
                vm_trailing_zeros = multiple_of_pow5(mv - 1 - mm_shift, q);
            else
                vp -= (uint64_t)multiple_of_pow5(mv + 2, q);
        }
    } else {
        int q = log10_pow5(-e2) - (-e2 > 1);
        e10 = q + e2;
        int i = -e2 - q;
        int k = pow5_bits(i) - POW5_BITS;
        int j = q - k;
        vr = mul_shift(4 * m2, pow5[i], j);
        vp = mul_shift(4 * m2 + 2, pow5[i], j);
        vm = mul_shift(4 * m2 - 1 - mm_shift, pow5[i], j);
        if (q <= 1) {
            /* mv has at least q trailing zero bits, so vr is exact. */
            vr_trailing_zeros = 1;
            if (accept_bounds)
                vm_trailing_zeros = mm_shift == 1;
            else
                vp--;
        } else if (q < 63) {
            vr_trailing_zeros = multiple_of_pow2(mv, q);
        }
    }

    /* Remove digits while the interval still holds a shorter number. */
    int removed = 0;
    uint8_t last_removed = 0;
    uint64_t output;
    if (vm_trailing_zeros || vr_trailing_zeros) {
        while (vp / 10 > vm / 10) {
            vm_trailing_zeros &= vm % 10 == 0;
            vr_trailing_zeros &= last_removed == 0;
            last_removed = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vm_trailing_zeros) {
            while (vm % 10 == 0) {
                vr_trailing_zeros &= last_removed == 0;
                last_removed = (uint8_t)(vr % 10);
                vr /= 10;
                vp /= 10;
                vm /= 10;
                removed++;
            }
        }
        if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0)
            last_removed = 4; /* an exact half: round to even */
        output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
    } else {
        int round_up = 0;
        if (vp / 100 > vm / 100) {
            round_up = vr % 100 >= 50;
            vr /= 100;
            vp /= 100;
            vm /= 100;
            removed += 2;
        }
        while (vp / 10 > vm / 10) {
            round_up = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + (vr == vm || round_up);
    }
    int exponent = e10 + removed;
    while (output % 10 == 0) { /* rounding up can leave zeros (99 -> 100) */
        output /= 10;
        exponent++;
    }
    return (sp_decimal){output, exponent};
}

/*
 * Durations in seconds are nanosecond counts divided by 1e9: when |x| is
 * the double nearest to k * 10^-9 for an integer k below 10^15, that
 * decimal reads back as x, and no other decimal of at most 15 significant
 * digits does (two such decimals of about x's size are at least 10^-15 x
 * apart, more than the width of x's rounding interval, 2^-52 x), so k with
 * its trailing zeros dropped is the shortest. (double)k / 1e9 is correctly
 * rounded, which makes the check exact.
 */
static int nanosecond_decimal(double ax, sp_decimal *out) {
    if (!(ax >= 1e-9 && ax < 1e6)) return 0;
    double scaled = ax * 1e9;
    uint64_t k = (uint64_t)(scaled + 0.5);
    if (k == 0 || k >= UINT64_C(1000000000000000) || (double)k / 1e9 != ax) return 0;
    int exponent = -9;
    while (k % 10 == 0) {
        k /= 10;
        exponent++;
    }
    *out = (sp_decimal){k, exponent};
    return 1;
}

sp_decimal sp_shortest_decimal(double x) {
    sp_decimal d;
    if (nanosecond_decimal(x < 0 ? -x : x, &d)) return d;
    return ryu_decimal(x);
}
