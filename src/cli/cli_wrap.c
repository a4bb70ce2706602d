#include "cli/cli_wrap.h"

#include <string.h>

#include "cli/cli_colour.h"
#include "cli/cli_text.h"

void cli_print_wrapped(FILE *out, const char *text, size_t width, size_t indent) {
    size_t lead = strspn(text, " ");
    size_t col = 0;
    const char *p = text;
    int first_word = 1;
    fwrite(text, 1, lead, out);
    col = lead;
    p += lead;
    while (*p) {
        size_t n = strcspn(p, " ");
        char word[4096];
        size_t take = n < sizeof word - 1 ? n : sizeof word - 1;
        memcpy(word, p, take);
        word[take] = '\0';
        size_t len = cli_utf8_length(word);
        if (!first_word && width && col + 1 + len > width) {
            fputc('\n', out);
            for (size_t i = 0; i < indent + lead; i++)
                fputc(' ', out);
            col = indent + lead;
        } else if (!first_word) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, n, out);
        col += len;
        first_word = 0;
        p += n;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

size_t cli_stdout_width(void) {
    return cli_terminal_width(stdout);
}
