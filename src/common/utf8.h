/* UTF-8 decoding for the text primitives: code points and display width. */
#ifndef SP_COMMON_UTF8_H
#define SP_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one code point from s (n > 0 bytes available) into *cp and returns
 * the number of bytes used. Malformed input (bad lead or continuation byte,
 * overlong form, surrogate, > U+10FFFF, truncation) yields -1 in *cp and
 * consumes exactly one byte. */
size_t sp_utf8_decode(const unsigned char *s, size_t n, int32_t *cp);

/* Writes cp as UTF-8 into out (4 bytes room); returns the length. */
size_t sp_utf8_encode(uint32_t cp, char *out);

/* Number of code points in s (a malformed byte counts as one), like
 * Python's len() of the decoded string. */
size_t sp_utf8_length(const char *s);

/* The code point at s[*i] (U+FFFD for an invalid byte), advancing *i past it. */
uint32_t sp_utf8_next(const char *s, size_t len, size_t *i);

#endif
