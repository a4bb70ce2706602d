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

/* The same, but broken after the ", " or "; " of clauses ("imbalance 14.84%, load
 * balance 87.07%") where it can, so that a figure stays with its words; a
 * clause longer than the line breaks at spaces. */
void cli_print_clauses(FILE *out, const char *text, size_t width, size_t indent);

/* A section title (bold when asked), wrapped at the width as clauses, lines
 * after the first indented by 2. */
void cli_print_title_fit(FILE *out, int bold, size_t width, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* label then text, wrapped, the lines after the first under the text
 * ("Candidate: " and a long run title). */
void cli_print_labelled(FILE *out, const char *label, const char *text, size_t width);

/* The width of stdout's text (cli_terminal_width(stdout)). */
size_t cli_stdout_width(void);

#endif
