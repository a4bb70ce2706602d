#include "table_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cells {
    char text[256][2][160];
    size_t n;
} cells;

static size_t width(const char *s) {
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void prefix(int depth, char *out, size_t size, int spaces) {
    out[0] = '\0';
    if (depth == 0) return;
    for (int i = 0; i < depth - 1; i++)
        strncat(out, spaces ? "  " : "│ ", size - strlen(out) - 1);
    strncat(out, spaces ? "   " : "└─ ", size - strlen(out) - 1);
}

static void count_text(uint64_t v, char *out, size_t size) {
    if (v >= 1000000000ull)
        snprintf(out, size, "%.3gB", (double)v / 1e9);
    else if (v >= 1000000ull)
        snprintf(out, size, "%.3gM", (double)v / 1e6);
    else if (v >= 1000ull)
        snprintf(out, size, "%.3gk", (double)v / 1e3);
    else
        snprintf(out, size, "%llu", (unsigned long long)v);
}

static void add_row(cells *c, const sp_table_row *r) {
    char pre[96], ind[96], count[32] = "";
    prefix(r->depth, pre, sizeof pre, 0);
    prefix(r->depth, ind, sizeof ind, 1);
    if (r->calls != 1) {
        char k[24];
        count_text(r->calls, k, sizeof k);
        snprintf(count, sizeof count, " (%sx)", k);
    }
    snprintf(c->text[c->n][0], 160, "%s%s%s%s", pre, r->name, r->recursive ? " ↻" : "", count);
    if (r->has_timing)
        snprintf(c->text[c->n][1], 160, "%s%.6f", ind, r->total);
    else
        snprintf(c->text[c->n][1], 160, "%s-", ind);
    c->n++;
    if (!r->has_children) return;
    prefix(r->depth + 1, pre, sizeof pre, 0);
    prefix(r->depth + 1, ind, sizeof ind, 1);
    snprintf(c->text[c->n][0], 160, "%s(own)", pre);
    snprintf(c->text[c->n][1], 160, "%s%.6f", ind, r->exclusive);
    c->n++;
}

static void rule(char *out, size_t size, const char *l, const char *r, const size_t *w) {
    strncat(out, "  ", size - strlen(out) - 1);
    strncat(out, l, size - strlen(out) - 1);
    for (int j = 0; j < 2; j++) {
        if (j) strncat(out, "──", size - strlen(out) - 1);
        for (size_t k = 0; k < w[j] + 2; k++)
            strncat(out, "─", size - strlen(out) - 1);
    }
    strncat(out, r, size - strlen(out) - 1);
    strncat(out, "\n", size - strlen(out) - 1);
}

static void line(char *out, size_t size, const char *a, const char *b, const size_t *w) {
    const char *cell[2] = {a, b};
    strncat(out, "  │", size - strlen(out) - 1);
    for (int j = 0; j < 2; j++) {
        if (j) strncat(out, "  ", size - strlen(out) - 1);
        strncat(out, " ", size - strlen(out) - 1);
        strncat(out, cell[j], size - strlen(out) - 1);
        for (size_t k = width(cell[j]); k < w[j] + 1; k++)
            strncat(out, " ", size - strlen(out) - 1);
    }
    strncat(out, "│\n", size - strlen(out) - 1);
}

char *tt_render_default(const sp_table_rows *rows) {
    cells *c = calloc(1, sizeof *c);
    for (size_t i = 0; i < rows->count && c->n < 250; i++)
        add_row(c, &rows->rows[i]);
    size_t w[2] = {strlen("region") + 2, strlen("total [s]") + 2};
    for (size_t i = 0; i < c->n; i++)
        for (int j = 0; j < 2; j++)
            if (width(c->text[i][j]) > w[j]) w[j] = width(c->text[i][j]);
    size_t size = 64 * 1024;
    char *out = calloc(size, 1);
    rule(out, size, "╭", "╮", w);
    line(out, size, "region", "total [s]", w);
    rule(out, size, "├", "┤", w);
    for (size_t i = 0; i < c->n; i++)
        line(out, size, c->text[i][0], c->text[i][1], w);
    rule(out, size, "╰", "╯", w);
    strncat(out, "\n", size - strlen(out) - 1);
    free(c);
    return out;
}

char *tt_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = calloc(1024 * 1024, 1);
    size_t n = fread(buf, 1, 1024 * 1024 - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}
