/* The Python-compatible text primitives: float repr, str repr, JSON and
 * CSV escaping, UTF-8 lengths, path spellings, the json.dump layout. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "present/csv_escape.h"
#include "present/json_build.h"
#include "common/json_escape.h"
#include "present/json_print.h"
#include "common/py_float.h"
#include "present/py_path.h"
#include "common/py_repr.h"
#include "common/utf8.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static double from_bits(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* --- float repr ------------------------------------------------------------ */

/* Bit patterns and Python 3.11's repr() of them. */
static const struct {
    uint64_t bits;
    const char *repr;
} float_cases[] = {
    {0x0000000000000000ull, "0.0"},
    {0x8000000000000000ull, "-0.0"},
    {0x3ee4f8b588e368f1ull, "1e-05"},
    {0x3ed80efbac9a637full, "5.736e-06"},
    {0x4341c37937e08000ull, "1e+16"},
    {0x3fd3333333333334ull, "0.30000000000000004"},
    {0x4000000000000000ull, "2.0"},
    {0x437b69b4ba630f35ull, "1.2345678901234568e+17"},
    {0x0000000000000001ull, "5e-324"},
    {0x8000000000000001ull, "-5e-324"},
    {0x0000000000000003ull, "1.5e-323"},
    {0x0010000000000000ull, "2.2250738585072014e-308"},
    {0x000fffffffffffffull, "2.225073858507201e-308"},
    {0x7fefffffffffffffull, "1.7976931348623157e+308"},
    {0x7fe0000000000000ull, "8.98846567431158e+307"},
    {0x3f1a36e2eb1c432dull, "0.0001"},
    {0xbf1a36e2eb1c432dull, "-0.0001"},
    {0x3f1a36e2eb1c432cull, "9.999999999999999e-05"},
    {0x4341c37937e07fffull, "9999999999999998.0"},
    {0x4341c37937e08001ull, "1.0000000000000002e+16"},
    {0x430c6bf526340000ull, "1000000000000000.0"},
    {0x4340000000000000ull, "9007199254740992.0"},
    {0x4340000000000001ull, "9007199254740994.0"},
    {0x40fe240c9fbe76c9ull, "123456.789"},
    {0x43118b54f22aeb03ull, "1234567890123456.8"},
    {0x4480f0cf064dd592ull, "1e+22"},
    {0x44b52d02c7e14af6ull, "1e+23"},
    {0x7e6ddd4baa009303ull, "1e+301"},
    {0x43b0000000000000ull, "1.152921504606847e+18"},
    {0x43e0000000000000ull, "9.223372036854776e+18"},
    {0x43f0000000000000ull, "1.8446744073709552e+19"},
    {0x3eb0000000000000ull, "9.5367431640625e-07"},
    {0x3fb3333333333334ull, "0.07500000000000001"},
    {0x3fd3333333333333ull, "0.3"},
    {0x3fd5555555555555ull, "0.3333333333333333"},
    {0x3fe5555555555555ull, "0.6666666666666666"},
    {0x4059000000000000ull, "100.0"},
    {0x3fe0000000000000ull, "0.5"},
    {0xbff8000000000000ull, "-1.5"},
    {0x3e8421f5f40d8376ull, "1.5e-07"},
    {0x3f06ce789e774eecull, "4.35e-05"},
    {0x3eab9b15f253bbbdull, "8.227170595046889e-07"},
    {0x3fab2b7ceca20000ull, "0.053066162000504846"},
    {0x3f8f56072642927full, "0.015300804"},
    {0x4033ffffffffffffull, "19.999999999999996"},
    {0x3f3ac1450e627b20ull, "0.000408248290463863"},
};

static void test_float_repr_cases(void **state) {
    (void)state;
    char out[SP_PY_FLOAT_REPR_SIZE];
    for (size_t i = 0; i < N(float_cases); i++) {
        size_t n = sp_py_float_repr(from_bits(float_cases[i].bits), out);
        assert_string_equal(out, float_cases[i].repr);
        assert_int_equal(n, strlen(float_cases[i].repr));
    }
}

static void test_float_repr_arithmetic(void **state) {
    (void)state;
    char out[SP_PY_FLOAT_REPR_SIZE];
    volatile double a = 0.1, b = 0.2;
    sp_py_float_repr(a + b, out);
    assert_string_equal(out, "0.30000000000000004");
    sp_py_float_repr(5.736e-06, out);
    assert_string_equal(out, "5.736e-06");
    sp_py_float_repr(1e16, out);
    assert_string_equal(out, "1e+16");
}

static void test_float_repr_non_finite(void **state) {
    (void)state;
    char out[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(NAN, out);
    assert_string_equal(out, "nan");
    sp_py_float_repr(-NAN, out);
    assert_string_equal(out, "nan");
    sp_py_float_repr(INFINITY, out);
    assert_string_equal(out, "inf");
    sp_py_float_repr(-INFINITY, out);
    assert_string_equal(out, "-inf");
}

/* Every finite double reads back exactly, and no shorter digit string would. */
static void test_float_repr_round_trips(void **state) {
    (void)state;
    char out[SP_PY_FLOAT_REPR_SIZE];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 30000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        uint64_t bits = x;
        if (i % 4 == 1) bits &= 0x800FFFFFFFFFFFFFull; /* subnormals */
        if (i % 4 == 2) bits &= 0xFFF0000000000003ull; /* near powers of two */
        double d = from_bits(bits);
        if (!isfinite(d)) continue;
        size_t n = sp_py_float_repr(d, out);
        assert_true(n < SP_PY_FLOAT_REPR_SIZE);
        double back = strtod(out, NULL);
        assert_memory_equal(&back, &d, sizeof d);
        if (d != 0) {
            char digits[18];
            int decpt;
            int nd = sp_shortest_digits(d, digits, &decpt);
            if (nd > 1) {
                char shorter[40];
                snprintf(shorter, sizeof shorter, "%.*e", nd - 2, fabs(d));
                assert_true(strtod(shorter, NULL) != fabs(d));
            }
        }
    }
}

/* --- Python str repr --------------------------------------------------------- */

static char *repr(const char *s) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_py_str_repr(&b, s);
    return sp_textbuf_take(&b);
}

static void test_str_repr(void **state) {
    (void)state;
    static const char *cases[][2] = {
        {"solve", "'solve'"},
        {"", "''"},
        {"it's", "\"it's\""},
        {"say \"hi\"", "'say \"hi\"'"},
        {"both ' and \"", "'both \\' and \"'"},
        {"back\\slash", "'back\\\\slash'"},
        {"tab\tnew\nret\r", "'tab\\tnew\\nret\\r'"},
        {"\x01\x1f\x7f", "'\\x01\\x1f\\x7f'"},
        {"io/write \"x\"", "'io/write \"x\"'"},
        {"caf\xc3\xa9 \xe2\x86\xbb \xf0\x9f\x98\x80",
         "'caf\xc3\xa9 \xe2\x86\xbb \xf0\x9f\x98\x80'"},
        {"\xc2\x85\xc2\xa0\xc2\xad", "'\\x85\\xa0\\xad'"},
        {"\xe2\x80\x8b\xe2\x80\xa8\xef\xbb\xbf", "'\\u200b\\u2028\\ufeff'"},
        {"\xee\x80\x80\xf3\xa0\x80\x81", "'\\ue000\\U000e0001'"},
        {"bad\xff\xc3", "'bad\\xff\\xc3'"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        char *r = repr(cases[i][0]);
        assert_string_equal(r, cases[i][1]);
        free(r);
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    const char *items[] = {"assemble", "it's", "solve"};
    sp_py_str_list_repr(&b, items, 3);
    assert_string_equal(sp_textbuf_str(&b), "['assemble', \"it's\", 'solve']");
    sp_textbuf_free(&b);
    sp_py_str_list_repr(&b, items, 0);
    assert_string_equal(sp_textbuf_str(&b), "[]");
    sp_textbuf_free(&b);
}

static void test_isprintable(void **state) {
    (void)state;
    assert_true(sp_py_isprintable(' '));
    assert_true(sp_py_isprintable('~'));
    assert_false(sp_py_isprintable(0x7F));
    assert_false(sp_py_isprintable(0x9F));
    assert_false(sp_py_isprintable(0xA0));
    assert_true(sp_py_isprintable(0xA1));
    assert_true(sp_py_isprintable(0x21BB)); /* ↻ */
    assert_false(sp_py_isprintable(0x3000));
    assert_false(sp_py_isprintable(0xFFFE));
    assert_false(sp_py_isprintable(0x1FFFF));
    assert_true(sp_py_isprintable(0x1F600));
    assert_false(sp_py_isprintable(0x10FFFD));
}

/* --- JSON strings -------------------------------------------------------------- */

static char *json_str(const char *s, size_t n) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_json_escape_n(&b, s, n);
    return sp_textbuf_take(&b);
}

static void test_json_escape(void **state) {
    (void)state;
    static const char *cases[][2] = {
        {"plain", "\"plain\""},
        {"io/write \"x\"", "\"io/write \\\"x\\\"\""},
        {"a\\b", "\"a\\\\b\""},
        {"\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\""},
        {"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
        {"caf\xc3\xa9", "\"caf\\u00e9\""},
        {"\xe2\x86\xbb", "\"\\u21bb\""},
        {"\xf0\x9f\x98\x80", "\"\\ud83d\\ude00\""},
        /* bytes that are not UTF-8: U+10FE00 + byte (docs/robustness.md) */
        {"bad\xff", "\"bad\\udbff\\udeff\""},
        {"\xed\xa0\x80", "\"\\udbff\\udeed\\udbff\\udea0\\udbff\\ude80\""}, /* an encoded surrogate */
    };
    for (size_t i = 0; i < N(cases); i++) {
        char *r = json_str(cases[i][0], strlen(cases[i][0]));
        assert_string_equal(r, cases[i][1]);
        free(r);
    }
    char *r = json_str("a\0b", 3);
    assert_string_equal(r, "\"a\\u0000b\"");
    free(r);
}

/* Whatever the bytes, the result parses back with json-c. */
static void test_json_escape_always_valid(void **state) {
    (void)state;
    unsigned char bytes[64];
    uint32_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < sizeof bytes; i++) {
            x = x * 1103515245u + 12345u;
            bytes[i] = (unsigned char)(x >> 16);
        }
        char *text = json_str((const char *)bytes, sizeof bytes);
        struct json_object *o = json_tokener_parse(text);
        assert_non_null(o);
        assert_true(json_object_is_type(o, json_type_string));
        json_object_put(o);
        free(text);
    }
}

/* --- CSV ------------------------------------------------------------------ */

static void test_csv_field(void **state) {
    (void)state;
    static const char *cases[][2] = {
        {"solve", "solve"},
        {"", ""},
        {"a,b", "\"a,b\""},
        {"io/write \"x\"", "\"io/write \"\"x\"\"\""},
        {"line\nbreak", "\"line\nbreak\""},
        {"cr\r", "\"cr\r\""},
        {" spaced ", " spaced "},
        {"caf\xc3\xa9", "caf\xc3\xa9"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_csv_field(&b, cases[i][0], 0);
        assert_string_equal(sp_textbuf_str(&b), cases[i][1]);
        sp_textbuf_free(&b);
    }
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_csv_field(&b, "[]", 1);
    sp_textbuf_putc(&b, ',');
    sp_csv_field(&b, "[\"solver\"]", 1);
    assert_string_equal(sp_textbuf_str(&b), "\"[]\",\"[\"\"solver\"\"]\"");
    sp_textbuf_free(&b);
}

/* --- UTF-8 -------------------------------------------------------------------- */

static void test_utf8(void **state) {
    (void)state;
    assert_int_equal(sp_utf8_length(""), 0);
    assert_int_equal(sp_utf8_length("abc"), 3);
    assert_int_equal(sp_utf8_length("\xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80 "), 5); /* "│ └─ " */
    assert_int_equal(sp_utf8_length("\xf0\x9f\x98\x80"), 1);
    assert_int_equal(sp_utf8_length("\xff\xfe"), 2);
    assert_int_equal(sp_utf8_length("\xc0\xaf"), 2);         /* overlong */
    assert_int_equal(sp_utf8_length("\xf4\x90\x80\x80"), 4); /* > U+10FFFF */
    assert_int_equal(sp_utf8_length("\xe2\x94"), 2);         /* truncated */
    char enc[4];
    uint32_t cps[] = {0x24, 0xA2, 0x20AC, 0x10348, 0x10FFFF};
    for (size_t i = 0; i < N(cps); i++) {
        size_t n = sp_utf8_encode(cps[i], enc);
        int32_t back;
        assert_int_equal(sp_utf8_decode((unsigned char *)enc, n, &back), n);
        assert_int_equal(back, (int32_t)cps[i]);
    }
}

/* --- paths ---------------------------------------------------------------------- */

static void check_rel(const char *path, const char *start, const char *want) {
    char *r = sp_py_relpath_in(path, start, "/home/u/work");
    assert_non_null(r);
    assert_string_equal(r, want);
    free(r);
}

static void test_paths(void **state) {
    (void)state;
    check_rel("py_tutorial2.h5", ".", "py_tutorial2.h5");
    check_rel("./x//y.h5", ".", "x/y.h5");
    check_rel("/home/u/work/a.h5", ".", "a.h5");
    check_rel("/home/u/other/a.h5", ".", "../other/a.h5");
    check_rel("/tmp/a.h5", ".", "../../../tmp/a.h5");
    check_rel("/home/u/work", ".", ".");
    check_rel("sub/../a.h5", ".", "a.h5");
    check_rel("/", ".", "../../..");
    check_rel("a.h5", "/home", "u/work/a.h5");
    char *a = sp_py_abspath_in("../x/./y/../z.h5", "/home/u/work");
    assert_string_equal(a, "/home/u/x/z.h5");
    free(a);
    a = sp_py_abspath_in("/../..", "/home");
    assert_string_equal(a, "/");
    free(a);
    a = sp_py_resolve("/");
    assert_string_equal(a, "/");
    free(a);
    a = sp_py_resolve("/nonexistent-sp-dir/./a/../b.h5");
    assert_string_equal(a, "/nonexistent-sp-dir/b.h5");
    free(a);

    static const char *quotes[][2] = {
        {"py_tutorial2.h5", "py_tutorial2.h5"},
        {"a/b-c_d@e%f+g=h:i,j.k", "a/b-c_d@e%f+g=h:i,j.k"},
        {"", "''"},
        {"with space.h5", "'with space.h5'"},
        {"it's.h5", "'it'\"'\"'s.h5'"},
        {"caf\xc3\xa9.h5", "'caf\xc3\xa9.h5'"},
        {"$HOME", "'$HOME'"},
    };
    for (size_t i = 0; i < N(quotes); i++) {
        char *q = sp_py_shlex_quote(quotes[i][0]);
        assert_string_equal(q, quotes[i][1]);
        free(q);
    }
}

/* --- json.dump(indent=2) layout ------------------------------------------------------ */

static void test_json_print_layout(void **state) {
    (void)state;
    struct json_object *doc = json_object_new_object();
    struct json_object *list = json_object_new_array();
    struct json_object *inner = json_object_new_object();
    assert_true(sp_json_add_string(doc, "name", "io/write \"x\"\n\xc3\xa9"));
    assert_true(sp_json_add_int(doc, "count", 5));
    assert_true(sp_json_add_double(doc, "avg", 0.0030601608));
    assert_true(sp_json_add_double(doc, "zero", 0.0));
    assert_true(sp_json_add_double(doc, "tiny", 8.227170595046889e-07));
    assert_true(sp_json_add_double(doc, "nan", NAN));
    assert_true(sp_json_add_null(doc, "none"));
    assert_true(sp_json_add(doc, "empty_list", json_object_new_array()));
    assert_true(sp_json_add(doc, "empty_obj", json_object_new_object()));
    assert_true(sp_json_append(list, json_object_new_int64(-1)));
    assert_true(sp_json_append_null(list));
    assert_true(sp_json_append(list, json_object_new_boolean(1)));
    assert_true(sp_json_add_double(inner, "x", 1e16));
    assert_true(sp_json_append(list, inner));
    assert_true(sp_json_add(doc, "list", list));
    char *text = sp_json_document(doc);
    assert_string_equal(text, "{\n"
                              "  \"name\": \"io/write \\\"x\\\"\\n\\u00e9\",\n"
                              "  \"count\": 5,\n"
                              "  \"avg\": 0.0030601608,\n"
                              "  \"zero\": 0.0,\n"
                              "  \"tiny\": 8.227170595046889e-07,\n"
                              "  \"nan\": null,\n"
                              "  \"none\": null,\n"
                              "  \"empty_list\": [],\n"
                              "  \"empty_obj\": {},\n"
                              "  \"list\": [\n"
                              "    -1,\n"
                              "    null,\n"
                              "    true,\n"
                              "    {\n"
                              "      \"x\": 1e+16\n"
                              "    }\n"
                              "  ]\n"
                              "}\n");
    free(text);
    json_object_put(doc);

    struct json_object *empty = json_object_new_array();
    text = sp_json_document(empty);
    assert_string_equal(text, "[]\n");
    free(text);
    json_object_put(empty);
}

static void test_json_build_failures_are_contained(void **state) {
    (void)state;
    /* A NULL container (an earlier failure) frees what it is given. */
    assert_false(sp_json_add(NULL, "k", json_object_new_string("v")));
    assert_false(sp_json_add_int(NULL, "k", 1));
    assert_false(sp_json_add_null(NULL, "k"));
    assert_false(sp_json_append(NULL, json_object_new_string("v")));
    assert_false(sp_json_append_null(NULL));
    struct json_object *o = json_object_new_object();
    assert_false(sp_json_add(o, "k", NULL));
    assert_int_equal(json_object_object_length(o), 0);
    json_object_put(o);
    const char *items[] = {"a", "b"};
    struct json_object *a = sp_json_string_array(items, 2);
    char *text = sp_json_document(a);
    assert_string_equal(text, "[\n  \"a\",\n  \"b\"\n]\n");
    free(text);
    json_object_put(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_repr_cases),
        cmocka_unit_test(test_float_repr_arithmetic),
        cmocka_unit_test(test_float_repr_non_finite),
        cmocka_unit_test(test_float_repr_round_trips),
        cmocka_unit_test(test_str_repr),
        cmocka_unit_test(test_isprintable),
        cmocka_unit_test(test_json_escape),
        cmocka_unit_test(test_json_escape_always_valid),
        cmocka_unit_test(test_csv_field),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_json_print_layout),
        cmocka_unit_test(test_json_build_failures_are_contained),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
