/* The text buffer (src/common/text_buffer.c): appends, printf beyond its
 * small buffer, writing in place with sp_textbuf_space/advance, and the
 * sticky failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/text_buffer.h"

static void test_appends_and_printf(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    assert_string_equal(sp_textbuf_str(&b), "");
    sp_textbuf_append(&b, "count: ");
    sp_textbuf_printf(&b, "%d", 42);
    sp_textbuf_putc(&b, ';');
    sp_textbuf_repeat(&b, "ab", 3);
    assert_string_equal(sp_textbuf_str(&b), "count: 42;ababab");
    char long_text[300];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    sp_textbuf_printf(&b, "<%s>", long_text); /* longer than printf's small buffer */
    assert_int_equal(strlen(sp_textbuf_str(&b)), 16 + 301);
    sp_textbuf_free(&b);
}

static void test_writing_in_place(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, "rank ");
    for (int i = 0; i < 1000; i++) { /* grows the buffer many times */
        char *p = sp_textbuf_space(&b, 64);
        assert_non_null(p);
        memcpy(p, "0123456789", 10);
        sp_textbuf_advance(&b, (size_t)(i % 10) + 1); /* less than asked for */
    }
    const char *text = sp_textbuf_str(&b);
    size_t want = 5;
    for (int i = 0; i < 1000; i++)
        want += (size_t)(i % 10) + 1;
    assert_int_equal(strlen(text), want);
    assert_memory_equal(text,
                        "rank 0"
                        "01"
                        "012",
                        11);
    assert_int_equal(text[want], '\0');
    /* nothing written: the text is unchanged */
    assert_non_null(sp_textbuf_space(&b, 10));
    sp_textbuf_advance(&b, 0);
    assert_int_equal(strlen(sp_textbuf_str(&b)), want);
    sp_textbuf_free(&b);
}

static void test_failure_is_sticky(void **state) {
    (void)state;
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, "kept");
    assert_null(sp_textbuf_space(&b, SIZE_MAX / 2)); /* more than can be had */
    assert_true(sp_textbuf_failed(&b));
    sp_textbuf_advance(&b, 3); /* ignored */
    sp_textbuf_append(&b, "more");
    assert_null(sp_textbuf_str(&b));
    assert_null(sp_textbuf_take(&b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appends_and_printf),
        cmocka_unit_test(test_writing_in_place),
        cmocka_unit_test(test_failure_is_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
