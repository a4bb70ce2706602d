#include "cli/cli_wrap.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_colour.h"
#include "cli/cli_text.h"

/* The code points of the n bytes at p. */
static size_t span_length(const char *p, size_t n) {
    char piece[4096];
    size_t take = n < sizeof piece - 1 ? n : sizeof piece - 1;
    memcpy(piece, p, take);
    piece[take] = '\0';
    return cli_utf8_length(piece);
}

typedef struct line_state {
    FILE *out;
    size_t width, col, next_indent;
    int first;
} line_state;

/* Puts n bytes of one unbreakable piece on the line, or on the next one. */
static void put_piece(line_state *s, const char *p, size_t n) {
    size_t len = span_length(p, n);
    if (!s->first && s->width && s->col + 1 + len > s->width) {
        fputc('\n', s->out);
        for (size_t i = 0; i < s->next_indent; i++)
            fputc(' ', s->out);
        s->col = s->next_indent;
    } else if (!s->first) {
        fputc(' ', s->out);
        s->col++;
    }
    fwrite(p, 1, n, s->out);
    s->col += len;
    s->first = 0;
}

/* The words of p[0..n), each a piece. */
static void put_words(line_state *s, const char *p, size_t n) {
    const char *end = p + n;
    while (p < end) {
        while (p < end && *p == ' ')
            p++;
        const char *w = p;
        while (p < end && *p != ' ')
            p++;
        if (p > w) put_piece(s, w, (size_t)(p - w));
    }
}

/* The first ", " or "; " of p, or NULL. */
static const char *clause_end(const char *p) {
    const char *comma = strstr(p, ", "), *semicolon = strstr(p, "; ");
    if (!comma || (semicolon && semicolon < comma)) return semicolon;
    return comma;
}

/* The shared wrap: pieces end at ", " or "; " with clauses, else at spaces; a clause
 * longer than a line is broken into its words. */
static void print_wrapped(FILE *out, const char *text, size_t width, size_t indent, int clauses,
                          const char *end) {
    if (!width || cli_utf8_length(text) <= width) { /* what fits is printed as it is */
        fprintf(out, "%s%s\n", text, end);
        return;
    }
    size_t lead = strspn(text, " ");
    line_state s = {out, width, lead, indent + lead, 1};
    fwrite(text, 1, lead, out);
    const char *p = text + lead;
    size_t room = width > s.next_indent ? width - s.next_indent : 0;
    while (*p) {
        const char *comma = clauses ? clause_end(p) : NULL;
        size_t n = comma ? (size_t)(comma - p) + 1 : strlen(p);
        if (clauses && (!width || span_length(p, n) <= room))
            put_piece(&s, p, n);
        else
            put_words(&s, p, n);
        p += n;
        while (*p == ' ')
            p++;
    }
    fprintf(out, "%s\n", end);
}

void cli_print_wrapped(FILE *out, const char *text, size_t width, size_t indent) {
    print_wrapped(out, text, width, indent, 0, "");
}

void cli_print_clauses(FILE *out, const char *text, size_t width, size_t indent) {
    print_wrapped(out, text, width, indent, 1, "");
}

void cli_print_title_fit(FILE *out, int bold, size_t width, const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *title = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (bold) fputs("\033[1m", out);
    if (title) {
        vsnprintf(title, (size_t)n + 1, fmt, again);
        print_wrapped(out, title, width, 2, 1, bold ? "\033[0m" : "");
    } else { /* out of memory: unwrapped */
        vfprintf(out, fmt, again);
        fprintf(out, "%s\n", bold ? "\033[0m" : "");
    }
    va_end(again);
    free(title);
}

void cli_print_labelled(FILE *out, const char *label, const char *text, size_t width) {
    size_t n = strlen(label), m = strlen(text);
    char *line = malloc(n + m + 1);
    if (!line) { /* whole, then */
        fprintf(out, "%s%s\n", label, text);
        return;
    }
    memcpy(line, label, n);
    memcpy(line + n, text, m + 1);
    cli_print_wrapped(out, line, width, cli_utf8_length(label));
    free(line);
}

size_t cli_stdout_width(void) {
    return cli_terminal_width(stdout);
}
