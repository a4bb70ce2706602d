/*
 * Python's repr() of strings and of lists of strings, for error messages
 * that quote names the way the Python package does:
 *   'solve'   "it's"   'say "hi"\n'   ['a', 'b']
 *
 * Quotes: single, unless the text holds ' and no ". Escaped: backslash, the
 * quote in use, \t \n \r, other control characters as \xNN, and code points
 * that Python does not consider printable as \xNN, \uNNNN or \UNNNNNNNN.
 * Our printability table covers the control, format, separator, surrogate
 * and private-use categories and the noncharacters; unassigned code points
 * are shown as they are (Python would escape them), since the table would
 * otherwise have to follow each Unicode release. A byte that is not valid
 * UTF-8 is shown as \xNN.
 */
#ifndef SP_COMMON_PY_REPR_H
#define SP_COMMON_PY_REPR_H

#include <stddef.h>
#include <stdint.h>

#include "common/text_buffer.h"

void sp_py_str_repr(sp_textbuf *out, const char *s);

/* "[" + the items' reprs joined by ", " + "]". */
void sp_py_str_list_repr(sp_textbuf *out, const char *const *items, size_t n);

/* repr(float) appended: the shortest digits that read back exactly (py_float.h). */
void sp_py_float_append(sp_textbuf *out, double x);

/* repr(list of int): [0, 1, 2]. */
void sp_py_u32_list_repr(sp_textbuf *out, const uint32_t *items, size_t n);

/* str.isprintable() for one code point (with the limits described above). */
int sp_py_isprintable(uint32_t cp);

#endif
