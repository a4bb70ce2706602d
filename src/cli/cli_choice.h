/*
 * An option value that must be one of a fixed list: the error line names the
 * closest choice ("did you mean") and lists them all.
 */
#ifndef SP_CLI_CHOICE_H
#define SP_CLI_CHOICE_H

#include <stddef.h>

/* Index of value in names[0..n), or -1. */
int cli_choice_index(const char *value, const char *const *names, size_t n);

/* "scope-profiler: CMD: unknown WHAT "VALUE": did you mean "X"? (choose from
 * a, b, c)"; the hint only when a choice is close. Returns CLI_EXIT_USAGE. */
int cli_choice_error(const char *cmd, const char *what, const char *value,
                     const char *const *names, size_t n);

#endif
