/*
 * Integers as decimal text written straight into a caller's buffer, without
 * printf: the exports, `events` and the statistics JSON print millions.
 */
#ifndef SP_COMMON_DECIMAL_FORMAT_H
#define SP_COMMON_DECIMAL_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Decimal digits of v into out (at least 20 bytes); returns the length. */
size_t sp_format_u64(uint64_t v, char *out);
size_t sp_format_i64(int64_t v, char *out);
/* v / 10^scale as a decimal with the trailing zeros of the fraction dropped:
 * (18584422, 3) -> "18584.422", (2000, 3) -> "2", (-5, 9) -> "-0.000000005". */
size_t sp_format_scaled(int64_t v, int scale, char *out);

#endif
