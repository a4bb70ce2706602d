/*
 * Region names prepared once per export, in the form each format needs:
 * JSON string literals (quotes included, "<" as \u003c so that "</script>"
 * never appears), folded frames (%, ;, and control characters as %XX), and
 * valid UTF-8 for protobuf strings. In all of them a byte that is not valid
 * UTF-8 becomes its private-use escape (common/utf8.h).
 */
#ifndef SP_EXPORT_NAMES_H
#define SP_EXPORT_NAMES_H

#include <stddef.h>

#include "common/text_buffer.h"
#include "scope_profiler/results.h"

typedef enum sp_name_style { SP_NAMES_JSON, SP_NAMES_FOLDED, SP_NAMES_UTF8 } sp_name_style;

typedef struct sp_names {
    char **text;
    size_t *len;
    size_t count;
} sp_names;

sp_status sp_names_build(sp_names *n, const sp_results *r, sp_name_style style, sp_error *err);
void sp_names_free(sp_names *n);

/* Appends s in the given style. */
void sp_name_append(sp_textbuf *b, const char *s, sp_name_style style);

/* s as a JSON string literal (malloc'ed), or NULL when out of memory. */
char *sp_json_literal(const char *s);

#endif
