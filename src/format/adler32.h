/*
 * Adler-32 (RFC 1950 § 8.2), the checksum that ends every zlib stream, with
 * SSE2: zlib 1.2's own adler32() goes byte by byte and was a third of the
 * cost of inflating the event columns (issue 29). Same results as zlib's
 * adler32(adler, buf, len) for every input.
 */
#ifndef SP_FORMAT_ADLER32_H
#define SP_FORMAT_ADLER32_H

#include <stddef.h>
#include <stdint.h>

/* The checksum of len bytes continuing from adler (1 for a new stream). */
uint32_t sp_adler32(uint32_t adler, const unsigned char *buf, size_t len);

#endif
