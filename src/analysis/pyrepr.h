/* Python's repr() of the values that appear in messages (python_semantics.md §10.3). */
#ifndef SP_ANALYSIS_PYREPR_H
#define SP_ANALYSIS_PYREPR_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/strbuf.h"

/* Decodes the UTF-8 code point at s[*i] and advances *i; an invalid byte
 * decodes to U+FFFD and advances by one. */
uint32_t sp_utf8_next(const char *s, size_t len, size_t *i);

/* repr(str): 'abc', "it's", 'a\nb', '\x00'. */
void sp_py_repr_str(sp_strbuf *b, const char *s);

/* repr(list of str): ['a', 'b']. */
void sp_py_repr_str_list(sp_strbuf *b, const char *const *items, size_t n);

/* repr(list of int): [0, 1, 2]. */
void sp_py_repr_u32_list(sp_strbuf *b, const uint32_t *items, size_t n);

/* repr(float): the shortest digits that read back exactly, Python's layout. */
void sp_py_repr_float(sp_strbuf *b, double x);

#endif
