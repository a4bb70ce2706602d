/*
 * CSV fields per RFC 4180: a field holding a comma, a double quote, CR or LF
 * is enclosed in double quotes, with each double quote doubled. Records end
 * in CRLF (SP_CSV_EOL), the RFC's line break. The text is valid UTF-8: bytes
 * that are not become their private-use escapes (common/utf8.h).
 */
#ifndef SP_PRESENT_CSV_ESCAPE_H
#define SP_PRESENT_CSV_ESCAPE_H

#include "common/text_buffer.h"

#define SP_CSV_EOL "\r\n"

/* Appends s as one field; force_quote quotes it even when not needed. */
void sp_csv_field(sp_textbuf *out, const char *s, int force_quote);

#endif
