#include "cli/cli_colour.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cli_colour_wanted(FILE *stream) {
    if (getenv("NO_COLOR")) return 0;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return 0;
    return isatty(fileno(stream));
}

void cli_print_title(FILE *out, int bold, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (bold) fputs("\033[1m", out);
    vfprintf(out, fmt, ap);
    if (bold) fputs("\033[0m", out);
    fputc('\n', out);
    va_end(ap);
}

size_t cli_terminal_width(FILE *stream) {
    struct winsize ws;
    if (isatty(fileno(stream)) && ioctl(fileno(stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *columns = getenv("COLUMNS");
    if (!columns || !*columns) return CLI_DEFAULT_WIDTH;
    char *end;
    long n = strtol(columns, &end, 10);
    if (*end != '\0' || n < 0) return CLI_DEFAULT_WIDTH;
    return (size_t)n; /* COLUMNS=0: no limit */
}
