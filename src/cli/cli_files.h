/*
 * FILE arguments: several files and shell-style globs.
 */
#ifndef SP_CLI_FILES_H
#define SP_CLI_FILES_H

#include "cli/cli_list.h"

/* Nonzero when arg holds a glob character (*, ? or [). */
int cli_is_glob(const char *arg);

/*
 * Expands the FILE arguments into out: an argument with a glob character
 * that is not itself an existing path is expanded with glob(3) (matches in sorted order,
 * directories left out; a pattern that matches no file is an error), other arguments are kept as
 * given (a missing file is reported when it is read). A path named twice is
 * kept once, at its first place. Returns 0, or CLI_EXIT_USAGE after printing
 * the error (also when there is no FILE at all).
 */
int cli_expand_files(const char *cmd, const cli_list *args, cli_list *out);

/* "WHAT written to PATH (1.98 MB)" on stdout (the size from 1 MB up), and a
 * warning on stderr when the file is over 10 MB (browsers slow down; select less). */
void cli_print_written(const char *what, const char *path);

#endif
