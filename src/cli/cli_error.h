/*
 * Error lines on stderr: one line each, starting with "scope-profiler: ".
 */
#ifndef SP_CLI_ERROR_H
#define SP_CLI_ERROR_H

#include "scope_profiler/results.h"

/* Prints "scope-profiler: MESSAGE\n" to stderr; line breaks in the message
 * become spaces, so the error always stays on one line. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same with "warning: " after the prefix. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A library error: its message (which names the file), or the status text. */
void cli_error_sp(const sp_error *err);

/* A usage error of a command: "scope-profiler: CMD: MESSAGE (see
 * scope-profiler CMD --help)". Returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A bad option value of a command: "scope-profiler: CMD: MESSAGE" (the
 * message lists the valid choices). Returns CLI_EXIT_USAGE. */
int cli_value_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "out of memory" as an error line; returns CLI_EXIT_USAGE. */
int cli_out_of_memory(void);

#endif
