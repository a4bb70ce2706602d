#include "cli/cli_error.h"
#include "cli/cli_shown.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

/* Writes the message with line breaks flattened, then the newline. */
static void print_line(const char *kind, const char *fmt, va_list ap) {
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    fflush(stdout); /* keep the order of stdout and stderr on a shared terminal */
    fprintf(stderr, "scope-profiler: %s%s\n", kind, cli_shown(buf)); /* file names are data */
}

void cli_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_line("", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_line("warning: ", fmt, ap);
    va_end(ap);
}

void cli_error_sp(const sp_error *err) {
    if (err->message[0])
        cli_error("%s", err->message);
    else
        cli_error("%s", sp_status_string(err->status));
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    char buf[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cli_error("%s: %s (see scope-profiler %s --help)", cmd, buf, cmd);
    return CLI_EXIT_USAGE;
}

int cli_value_error(const char *cmd, const char *fmt, ...) {
    char buf[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cli_error("%s: %s", cmd, buf);
    return CLI_EXIT_USAGE;
}

int cli_out_of_memory(void) {
    cli_error("out of memory");
    return CLI_EXIT_USAGE;
}
