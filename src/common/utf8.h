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

/*
 * Names that are not valid UTF-8 (docs/robustness.md): every byte b that is
 * not part of a valid sequence stands for the private-use code point
 * U+10FE00 + b (b is 0x80-0xFF, so U+10FE80-U+10FEFF). A valid character of
 * that range is escaped byte by byte too, so the rule is reversible: in the
 * output, each code point U+10FE80-U+10FEFF is the byte (cp - 0x10FE00) and
 * every other character is itself. Distinct names stay distinct, and the
 * output is always valid UTF-8.
 */
#define SP_UTF8_ESCAPE_BASE 0x10FE00u

/* sp_utf8_decode with the escape rule: *cp is never negative. */
size_t sp_utf8_decode_escaped(const unsigned char *s, size_t n, int32_t *cp);

/* Whether cp stands for an escaped byte. */
static inline int sp_utf8_is_escape(uint32_t cp) {
    return cp >= SP_UTF8_ESCAPE_BASE + 0x80 && cp <= SP_UTF8_ESCAPE_BASE + 0xFF;
}

/* The code point at s[*i] under the escape rule, advancing *i past it. */
uint32_t sp_utf8_next(const char *s, size_t len, size_t *i);

#endif
