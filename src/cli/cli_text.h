/*
 * Text the tool prints the way the Python scope-profiler prints it:
 * repr() of floats and strings, JSON strings (json.dump's ensure_ascii),
 * CSV fields (RFC 4180), and UTF-8 lengths in code points.
 */
#ifndef SP_CLI_TEXT_H
#define SP_CLI_TEXT_H

#include <stddef.h>
#include <stdio.h>

#define CLI_FLOAT_REPR_SIZE 32

/* Python repr(float): the shortest text that reads back as v; positional
 * for 1e-4 <= |v| < 1e16 (with ".0" when integral), else "1.5e-05" style;
 * "nan", "inf", "-inf". */
void cli_float_repr(double v, char out[CLI_FLOAT_REPR_SIZE]);

/* Python repr(str): 'text' (or "text" when it holds ' and no "), with
 * backslash escapes for \, the quote, \n, \r, \t and other control characters. */
void cli_put_str_repr(FILE *out, const char *s);

/* Python repr(list of str): ['a', 'b']. */
void cli_put_list_repr(FILE *out, const char *const *items, size_t n);

/* A JSON string with quotes; every non-ASCII character as \uXXXX. */
void cli_put_json_string(FILE *out, const char *s);

/* A CSV field: quoted (with doubled quotes) when it holds , " CR or LF. */
void cli_put_csv_field(FILE *out, const char *s);

/* Number of code points of UTF-8 text (a stray byte counts as one). */
size_t cli_utf8_length(const char *s);

/* Bytes taken by the first n code points of s (all of s if it is shorter). */
size_t cli_utf8_prefix_bytes(const char *s, size_t n);

#endif
