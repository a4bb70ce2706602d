/*
 * check_template TEMPLATE OUTPUT: compares a program's output with a
 * template line by line. Text must match exactly, except for these tokens:
 *
 *   {t:NOMINAL}  a number of seconds from a sleep of NOMINAL seconds: at
 *                least NOMINAL - 0.5 ms, at most 3 * NOMINAL + 100 ms (a
 *                loaded machine stretches sleeps, and start times add up)
 *   {n}          any number
 *   {w}          any word (no space, comma, quote or closing bracket)
 *   {*}          the rest of the line, whatever it is
 *
 * The number of lines must match too. Prints the first difference and
 * exits 1, or exits 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 8192

typedef struct cursor {
    const char *tpl;
    const char *out;
} cursor;

static int number(cursor *c, double *v) {
    char *end;
    *v = strtod(c->out, &end);
    if (end == c->out) return 0;
    c->out = end;
    return 1;
}

/* Matches one token at c->tpl ("{" already seen); 0 on mismatch, -1 if it is no token. */
static int token(cursor *c, char *why, size_t size) {
    const char *t = c->tpl;
    double v;
    if (strncmp(t, "{*}", 3) == 0) {
        c->out += strlen(c->out);
        c->tpl += 3;
        return 1;
    }
    if (strncmp(t, "{w}", 3) == 0) {
        size_t n = strcspn(c->out, " ,'\"])}");
        c->out += n;
        c->tpl += 3;
        return n > 0;
    }
    if (strncmp(t, "{n}", 3) == 0) {
        c->tpl += 3;
        return number(c, &v);
    }
    if (strncmp(t, "{t:", 3) == 0) {
        char *end;
        double nominal = strtod(t + 3, &end);
        if (*end != '}') return -1;
        c->tpl = end + 1;
        if (!number(c, &v)) return 0;
        double lo = nominal - 0.0005, hi = 3 * nominal + 0.100; /* ASan at load 26: 64 ms for 7 */
        if (v >= lo && v <= hi) return 1;
        snprintf(why, size, "%.9g is outside [%.9g, %.9g]", v, lo, hi);
        return 0;
    }
    return -1;
}

static int match_line(const char *tpl, const char *out, char *why, size_t size) {
    cursor c = {tpl, out};
    while (*c.tpl) {
        if (*c.tpl == '{') {
            int r = token(&c, why, size);
            if (r == 0) return 0;
            if (r == 1) continue;
        }
        if (*c.tpl != *c.out) return 0;
        c.tpl++;
        c.out++;
    }
    return *c.out == '\0';
}

static int read_line(FILE *f, char *buf) {
    if (!fgets(buf, MAX_LINE, f)) return 0;
    buf[strcspn(buf, "\n")] = '\0';
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: check_template TEMPLATE OUTPUT\n");
        return 2;
    }
    FILE *tf = fopen(argv[1], "r"), *of = fopen(argv[2], "r");
    if (!tf || !of) {
        fprintf(stderr, "check_template: cannot open %s\n", tf ? argv[2] : argv[1]);
        return 2;
    }
    static char tpl[MAX_LINE], out[MAX_LINE];
    int status = 0;
    for (int line = 1;; line++) {
        int has_tpl = read_line(tf, tpl), has_out = read_line(of, out);
        if (!has_tpl && !has_out) break;
        char why[256] = "";
        if (has_tpl && has_out && match_line(tpl, out, why, sizeof why)) continue;
        printf("line %d differs%s%s\n  template: %s\n  output:   %s\n", line, why[0] ? ": " : "",
               why, has_tpl ? tpl : "(end)", has_out ? out : "(end)");
        status = 1;
        break;
    }
    fclose(tf);
    fclose(of);
    if (!status) printf("output matches %s\n", argv[1]);
    return status;
}
