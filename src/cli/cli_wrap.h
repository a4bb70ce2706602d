/*
 * Prose lines within the output width (issue 28: 80 columns when piped):
 * broken at spaces, continuation lines indented. A word longer than the
 * width (a path, a long region name) is printed whole on its own line.
 */
#ifndef SP_CLI_WRAP_H
#define SP_CLI_WRAP_H

#include <stddef.h>
#include <stdio.h>

/* Prints text and a newline; lines after the first start with indent
 * spaces (plus the text's own leading spaces). width 0: one line. */
void cli_print_wrapped(FILE *out, const char *text, size_t width, size_t indent);

/* The width of stdout's text (cli_terminal_width(stdout)). */
size_t cli_stdout_width(void);

#endif
