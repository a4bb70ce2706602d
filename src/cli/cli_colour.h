/*
 * Colour: only on a terminal, never when NO_COLOR is set (to anything,
 * even empty) or TERM is "dumb". Kept minimal: bold section titles.
 */
#ifndef SP_CLI_COLOUR_H
#define SP_CLI_COLOUR_H

#include <stddef.h>
#include <stdio.h>

/* Nonzero when output to stream may be coloured. */
int cli_colour_wanted(FILE *stream);

/* Prints the formatted text followed by a newline, in bold when bold is nonzero. */
void cli_print_title(FILE *out, int bold, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Pipes and files without $COLUMNS get what a terminal would (issue 28). */
#define CLI_DEFAULT_WIDTH 80

/* The width to fit text in: the terminal's when stream is one, else $COLUMNS
 * when set (0: no limit), else CLI_DEFAULT_WIDTH. */
size_t cli_terminal_width(FILE *stream);

#endif
