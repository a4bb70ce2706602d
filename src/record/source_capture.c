#include "record/source_capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCE_BYTES (16u << 20)

/* The whole file, or NULL (missing, unreadable or too large). */
static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && (unsigned long)n <= MAX_SOURCE_BYTES && fseek(f, 0, SEEK_SET) == 0 &&
            (buf = malloc((size_t)n + 1))) {
            *size = fread(buf, 1, (size_t)n, f);
            buf[*size] = '\0';
        }
    }
    fclose(f);
    return buf;
}

/* Marks which bytes are code: comments, string and character literals are not. */
static char *code_mask(const char *s, size_t n) {
    char *code = calloc(n + 1, 1);
    if (!code) return NULL;
    size_t i = 0;
    while (i < n) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
                i++;
            i += 2;
        } else if (s[i] == '"' || s[i] == '\'') {
            char quote = s[i++];
            while (i < n && s[i] != quote && s[i] != '\n')
                i += s[i] == '\\' ? 2 : 1;
            i++;
        } else {
            code[i++] = 1;
        }
    }
    return code;
}

/* Offset of the start of 1-based line `line`, or n. */
static size_t line_start(const char *s, size_t n, int line) {
    size_t i = 0;
    for (int l = 1; l < line && i < n; i++)
        if (s[i] == '\n') l++;
    return i;
}

static size_t line_end(const char *s, size_t n, size_t i) {
    while (i < n && s[i] != '\n')
        i++;
    return i;
}

/* Offset of the brace matching the opening brace at `open`, or n. */
static size_t matching_brace(const char *s, const char *code, size_t n, size_t open) {
    int depth = 0;
    for (size_t i = open; i < n; i++) {
        if (!code[i]) continue;
        if (s[i] == '{') depth++;
        if (s[i] == '}' && --depth == 0) return i;
    }
    return n;
}

/* The unclosed opening brace enclosing `pos`: the innermost one, or the outermost. */
static size_t enclosing_brace(const char *s, const char *code, size_t pos, int outermost) {
    size_t stack[256];
    int depth = 0, overflow = 0;
    for (size_t i = 0; i < pos; i++) {
        if (!code[i]) continue;
        if (s[i] == '{') {
            if (depth < 256)
                stack[depth] = i;
            else
                overflow++;
            depth++;
        } else if (s[i] == '}' && depth > 0) {
            depth--;
        }
    }
    if (depth == 0 || depth - overflow <= 0) return (size_t)-1;
    return outermost ? stack[0] : stack[(depth > 256 ? 256 : depth) - 1];
}

/* Start of the line where the declaration owning the top-level brace at `open`
 * begins: after the previous top-level ';' or '}' or preprocessor line, past
 * blank space and comments. */
static size_t declaration_start(const char *s, const char *code, size_t open) {
    size_t i = open;
    for (;;) {
        /* A preprocessor line ends what came before, the file's first line included. */
        if (i < open && (i == 0 || s[i - 1] == '\n')) {
            size_t first = i; /* first non-blank character of this line */
            while (first < open && (s[first] == ' ' || s[first] == '\t'))
                first++;
            if (s[first] == '#') {
                i = line_end(s, open, first);
                break;
            }
        }
        if (i == 0) break;
        char c = s[i - 1];
        if (code[i - 1] && (c == ';' || c == '}')) break;
        i--;
    }
    while (i < open && (!code[i] || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    while (i > 0 && s[i - 1] != '\n')
        i--;
    return i;
}

static char *copy_range(const char *s, size_t from, size_t to) {
    char *text = malloc(to - from + 1);
    if (!text) return NULL;
    memcpy(text, s + from, to - from);
    text[to - from] = '\0';
    return text;
}

char *sp_source_capture(const char *path, int line) {
    if (!path || !*path || line <= 0) return NULL;
    size_t n = 0;
    char *s = read_file(path, &n);
    if (!s) return NULL;
    char *code = code_mask(s, n);
    char *text = NULL;
    size_t bol = line_start(s, n, line);
    if (!code || bol >= n) goto done;
    size_t eol = line_end(s, n, bol);
    char *site = NULL;
    for (size_t i = bol; i < eol && !site; i++)
        if (code[i] && !strncmp(s + i, "SP_", 3)) site = s + i;

    if (site && !strncmp(site, "SP_REGION", 9)) {
        /* The block after the macro's closing parenthesis. */
        size_t i = (size_t)(site - s) + 9, open = n;
        int paren = 0;
        for (; i < n; i++) {
            if (!code[i]) continue;
            if (s[i] == '(')
                paren++;
            else if (s[i] == ')' && --paren == 0)
                break;
        }
        for (i++; i < n; i++) {
            if (!code[i] || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') continue;
            if (s[i] == '{') open = i;
            break;
        }
        size_t close = open < n ? matching_brace(s, code, n, open) : n;
        text = copy_range(s, bol, close < n ? line_end(s, n, close) : eol);
    } else if (site && (!strncmp(site, "SP_PROFILE", 10) || !strncmp(site, "SP_SCOPE", 8))) {
        /* SP_PROFILE: the enclosing function; SP_SCOPE: the enclosing block. */
        int function = !strncmp(site, "SP_PROFILE", 10);
        size_t open = enclosing_brace(s, code, (size_t)(site - s), function);
        if (open == (size_t)-1) {
            text = copy_range(s, bol, eol);
        } else {
            size_t close = matching_brace(s, code, n, open);
            size_t from = function ? declaration_start(s, code, open) : open;
            while (from > 0 && s[from - 1] != '\n')
                from--;
            text = copy_range(s, from, close < n ? line_end(s, n, close) : n);
        }
    } else {
        text = copy_range(s, bol, eol); /* a manual sp_region(): its line */
    }
done:
    free(code);
    free(s);
    return text;
}
