/*
 * Command-line parsing shared by the sub-commands.
 *
 * Options: `--name`, `--name VALUE`, `--name=VALUE`, `-x`, `-x VALUE`,
 * `-xVALUE`. A list option (--include RE...) takes every following
 * argument up to the next one that starts with "-" (so put FILE arguments
 * before such options, or end the list with "--"); `--name=VALUE` gives it
 * exactly one value; repeating it adds values. After a bare "--" every
 * argument is a FILE. -h/--help prints the command's help.
 */
#ifndef SP_CLI_ARGS_H
#define SP_CLI_ARGS_H

#include <stddef.h>

#include "cli/cli_list.h"

typedef enum cli_arg_kind {
    CLI_FLAG = 0, /* no value */
    CLI_VALUE,    /* exactly one value */
    CLI_LIST      /* one or more values */
} cli_arg_kind;

typedef struct cli_option {
    const char *name; /* long name without "--" */
    char short_name;  /* 0: none */
    cli_arg_kind kind;
    int id;
} cli_option;

/* Receives each flag (value NULL) and each value of a value or list option.
 * Returns 0 to go on, or an exit code after printing the error. */
typedef int (*cli_option_fn)(void *ctx, int id, const char *value);

typedef struct cli_command_spec {
    const char *name; /* "inspect" */
    const char *help; /* printed by --help */
    const cli_option *options;
    size_t num_options;
    cli_option_fn on_option;
} cli_command_spec;

/* cli_parse() result when --help was printed: the command exits 0. */
#define CLI_PARSED_HELP (-1)

/*
 * Parses argv[1..argc) (argv[0] is the command name) into callbacks and the
 * FILE arguments (borrowed from argv, appended to files). Returns 0,
 * CLI_PARSED_HELP, or an exit code after printing the error.
 */
int cli_parse(const cli_command_spec *spec, int argc, char **argv, void *ctx, cli_list *files);

#endif
