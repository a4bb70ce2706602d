#include "cli/cli_colour.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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
