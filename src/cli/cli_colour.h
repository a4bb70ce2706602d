/*
 * Colour: only on a terminal, never when NO_COLOR is set (to anything,
 * even empty) or TERM is "dumb". Kept minimal: bold section titles.
 */
#ifndef SP_CLI_COLOUR_H
#define SP_CLI_COLOUR_H

#include <stdio.h>

/* Nonzero when output to stream may be coloured. */
int cli_colour_wanted(FILE *stream);

/* Prints the formatted text followed by a newline, in bold when bold is nonzero. */
void cli_print_title(FILE *out, int bold, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
