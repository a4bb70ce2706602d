/*
 * Text for XML and HTML (SVG charts, the report): names and metadata are
 * data, never markup. & < > " ' become entities; a line break or tab in an
 * attribute becomes a character reference (so it survives attribute
 * normalisation); other control characters, which XML 1.0 forbids, become
 * U+FFFD; bytes that are not valid UTF-8 become their private-use escapes
 * (common/utf8.h), so the output always parses and distinct names stay distinct.
 */
#ifndef SP_COMMON_MARKUP_ESCAPE_H
#define SP_COMMON_MARKUP_ESCAPE_H

#include <stddef.h>

#include "common/text_buffer.h"

/* Appends s (n bytes) escaped for element content and quoted attribute values. */
void sp_markup_escape_n(sp_textbuf *out, const char *s, size_t n);
void sp_markup_escape(sp_textbuf *out, const char *s);

/* Appends s as a JSON string literal that is also safe inside an HTML
 * <script> element: < > & are written as \u003c \u003e \u0026. */
void sp_script_json_string(sp_textbuf *out, const char *s);

#endif
