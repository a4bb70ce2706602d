/*
 * Serialises a json-c tree exactly as Python's json.dump(obj, f, indent=2)
 * does: two spaces per level, ", " never, ",\n" between items, ": " after
 * keys, "{}" / "[]" for empty containers, object keys in insertion order,
 * floats as Python repr (py_float.h), strings per json_escape.h. Non-finite
 * doubles, which Python would write as the invalid tokens NaN / Infinity,
 * are written as null.
 */
#ifndef SP_PRESENT_JSON_PRINT_H
#define SP_PRESENT_JSON_PRINT_H

#include <json-c/json.h>

#include "common/text_buffer.h"

/* Appends the value at nesting level `level` (0 for a document). */
void sp_json_print(sp_textbuf *out, struct json_object *value, int level);

/* Pieces of the same layout for a document printed as it is produced (a
 * container too large to hold as a tree): the "," (unless first) and the
 * line break before an item at `level`; the same followed by the key and
 * ": "; the closing bracket of a container at `level` ("{}" / "[]" when it
 * stayed empty). */
void sp_json_print_separator(sp_textbuf *out, int first, int level);

/* The layout's line break and indent of `level` written at p (for text
 * composed in place, sp_textbuf_space): sp_json_line_size(level) bytes;
 * returns the end. */
size_t sp_json_line_size(int level);
char *sp_json_put_line(char *p, int level);
void sp_json_print_key(sp_textbuf *out, const char *key, int first, int level);
void sp_json_print_close(sp_textbuf *out, char close, int empty, int level);

/* The whole document followed by a newline; NULL when out of memory. */
char *sp_json_document(struct json_object *value);

#endif
