/*
 * Text bound for a terminal (the table, inspect, diff): names and metadata
 * are data, and must not move the cursor, change colours, set the window
 * title or ring the bell. Control characters become visible escapes: \t \n
 * \r, other C0 characters and DEL as \xNN, C1 characters as \u00NN; a byte
 * that is not valid UTF-8 is shown as \xNN. Everything else is unchanged,
 * so valid, printable names look exactly as before (docs/robustness.md).
 */
#ifndef SP_COMMON_TERMINAL_TEXT_H
#define SP_COMMON_TERMINAL_TEXT_H

#include "common/text_buffer.h"

/* Appends s made safe for a terminal. */
void sp_terminal_append(sp_textbuf *out, const char *s);

/* s made safe for a terminal (malloc'ed), or NULL when out of memory. */
char *sp_terminal_text(const char *s);

#endif
