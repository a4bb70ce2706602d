/*
 * The escape rule for bytes that are not valid UTF-8 (common/utf8.h,
 * docs/robustness.md): every output is valid UTF-8 and decodes back to the
 * original bytes, also for a name that holds a character of the escape range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/json_escape.h"
#include "common/utf8.h"
#include "present/csv_escape.h"

/* The reverse of the rule, written from its documentation: strict UTF-8 in,
 * each U+10FE80-U+10FEFF back to its byte. Returns the length, or -1 when
 * the text is not valid UTF-8. */
static long unescape(const char *s, size_t n, char *out) {
    size_t len = 0;
    for (size_t i = 0; i < n;) {
        int32_t cp;
        size_t used = sp_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (cp < 0) return -1;
        if (cp >= 0x10FE80 && cp <= 0x10FEFF)
            out[len++] = (char)(cp - 0x10FE00);
        else
            memcpy(out + len, s + i, used), len += used;
        i += used;
    }
    return (long)len;
}

static const char *const names[] = {
    "x\xff",
    "x\xfe",
    "x\xef\xbf\xbd",    /* collided into "x\ufffd" before */
    "\xf4\x8f\xba\x80", /* a real U+10FE80: escaped byte by byte */
    "\xf4\x8f\xba",     /* its first three bytes only */
    "\xc0\xaf",
    "\xed\xa0\x80", /* an overlong "/", a surrogate */
    "plain",
    "caf\xc3\xa9",
};
#define NUM_NAMES (sizeof names / sizeof names[0])

static void csv_fields_round_trip(void **state) {
    (void)state;
    char *seen[NUM_NAMES];
    for (size_t i = 0; i < NUM_NAMES; i++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_csv_field(&b, names[i], 0);
        char back[64];
        long n = unescape(b.data, b.len, back);
        assert_int_equal(n, (long)strlen(names[i]));
        assert_memory_equal(back, names[i], (size_t)n);
        seen[i] = sp_textbuf_take(&b);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(seen[i], seen[j]);
    }
    assert_string_equal(seen[0], "x\xf4\x8f\xbb\xbf");
    assert_string_equal(seen[3],
                        "\xf4\x8f\xbb\xb4\xf4\x8f\xba\x8f\xf4\x8f\xba\xba\xf4\x8f\xba\x80");
    assert_string_equal(seen[7], "plain");
    assert_string_equal(seen[8], "caf\xc3\xa9");
    for (size_t i = 0; i < NUM_NAMES; i++)
        free(seen[i]);
}

static void json_strings_are_distinct(void **state) {
    (void)state;
    static const char *const expected[] = {
        "\"x\\udbff\\udeff\"",
        "\"x\\udbff\\udefe\"",
        "\"x\\ufffd\"",
        "\"\\udbff\\udef4\\udbff\\ude8f\\udbff\\udeba\\udbff\\ude80\"",
    };
    for (size_t i = 0; i < 4; i++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_json_escape(&b, names[i]);
        assert_string_equal(sp_textbuf_str(&b), expected[i]);
        sp_textbuf_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_fields_round_trip),
        cmocka_unit_test(json_strings_are_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
