/*
 * JSON string literals as Python's json.dump writes them (ensure_ascii):
 * \" \\ \n \r \t \b \f, every other character outside printable ASCII as
 * \u00XX / \uXXXX (lower-case hex; beyond U+FFFF a surrogate pair); "/" is
 * not escaped. A byte that is not valid UTF-8 becomes its private-use escape
 * (common/utf8.h; Python would read it as U+FFFD, merging distinct names), so
 * the output is always valid JSON and distinct strings stay distinct.
 */
#ifndef SP_COMMON_JSON_ESCAPE_H
#define SP_COMMON_JSON_ESCAPE_H

#include <stddef.h>

#include "common/text_buffer.h"

/* Appends s (n bytes) as a quoted JSON string. */
void sp_json_escape_n(sp_textbuf *out, const char *s, size_t n);
void sp_json_escape(sp_textbuf *out, const char *s);

#endif
