#include <stdlib.h>
#include <string.h>

#include "present/py_path.h"
#include "present/table.h"
#include "common/terminal_text.h"
#include "common/utf8.h"

#define MAX_NOTES 24

typedef struct notes {
    char *text[MAX_NOTES]; /* owned */
    int command[MAX_NOTES]; /* a command line: wrapped with " \\" so that it stays copyable */
    size_t n;
    int failed;
} notes;

static void add(notes *ns, sp_textbuf *b) {
    char *s = sp_textbuf_take(b);
    if (!s || ns->n == MAX_NOTES) {
        free(s);
        ns->failed = 1;
        return;
    }
    ns->text[ns->n++] = s;
}

static void add_text(notes *ns, const char *text) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, text);
    add(ns, &b);
}

static void add_hint(notes *ns, const char *before, const char *path, const char *after) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_textbuf_append(&b, before);
    sp_terminal_append(&b, path); /* a file name is data too */
    sp_textbuf_append(&b, after);
    add(ns, &b);
    if (!ns->failed) ns->command[ns->n - 1] = 1;
}

static void add_hints(notes *ns, const char *file_path, int no_events) {
    char *rel = sp_py_relpath(file_path);
    char *p = rel ? sp_py_shlex_quote(rel) : NULL;
    free(rel);
    if (!p) {
        ns->failed = 1;
        return;
    }
    /* The follow-up commands of our own command-line tool (docs/cli.md). */
    add_text(ns, "");
    add_text(ns, "Explore:");
    add_hint(ns, "  Inspect:  scope-profiler inspect ", p, "");
    if (!no_events) add_hint(ns, "  Events:   scope-profiler events ", p, " --format csv");
    add_text(ns, "");
    add_text(ns, "Export:");
    add_hint(ns, "  Stats:    scope-profiler stats ", p, " -o region_statistics.json");
    add_hint(ns, "  Rows:     scope-profiler inspect ", p, " --format csv");
    add_hint(ns, "  Metadata: scope-profiler metadata ", p, " -o metadata.json");
    add_text(ns, "");
    free(p);
}

/* What the slowest-rank column compares (docs/parallel.md §2): with the wait
 * states, the time outside MPI waits; MPI calls without them, whole time. */
static void slowest_note(notes *ns, const sp_table_rows *rows) {
    int mpi = 0;
    for (size_t i = 0; i < rows->count; i++)
        mpi |= strncmp(rows->rows[i].name, "MPI_", 4) == 0;
    if (rows->excluded_state == 1)
        add_text(ns, "slowest rank: the most time outside MPI waits (the wait states of its MPI "
                     "calls: scope-profiler waits).");
    else if (rows->excluded_state == -1 && mpi)
        add_text(ns, "slowest rank: the most time, MPI waits included (unknown: the file has no "
                     "peer records).");
}

static void collect(notes *ns, const sp_table_rows *rows, const sp_notes_context *ctx) {
    if (ctx->title) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_textbuf_append(&b, "Summary: ");
        sp_terminal_append(&b, ctx->title);
        add(ns, &b);
    }
    if (ctx->file_path) add_hints(ns, ctx->file_path, ctx->no_events);
    add_text(ns, !ctx->readable ? "Durations are in seconds."
                 : ctx->ascii  ? "Durations carry their unit (s, ms, us, ns)."
                               : "Durations carry their unit (s, ms, \xc2\xb5s, ns).");
    if (rows->count > 1)
        add_text(ns, "Regions may nest, so the summed total can exceed the wall-clock time.");
    int recursive = 0, untimed = 0;
    double percentile_error = 0.0;
    for (size_t i = 0; i < rows->count; i++) {
        recursive |= rows->rows[i].recursive;
        untimed |= !rows->rows[i].has_timing;
        if (rows->rows[i].has_percentiles && rows->rows[i].percentile_error > percentile_error)
            percentile_error = rows->rows[i].percentile_error;
    }
    if (recursive)
        add_text(ns, ctx->ascii ? "(r) Recursive rows aggregate all invocations of that region."
                                : "\xe2\x86\xbb Recursive rows aggregate all invocations of that "
                                  "region.");
    if (rows->has_session_total)
        add_text(ns, ctx->exclusive_mode
                         ? "% session uses exclusive time for each region."
                         : "% session uses wall-clock coverage; overlapping recursive calls "
                           "count once.");
    if (percentile_error > 0.0 && ctx->shows_percentiles) {
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_textbuf_printf(&b,
                          "p50/p95/p99 come from duration histograms: within %s%.2g %% of the "
                          "exact values.",
                          ctx->ascii ? "+-" : "\xc2\xb1", 100.0 * percentile_error);
        add(ns, &b);
    }
    if (untimed)
        add_text(ns, "Regions shown without timing recorded no calls on the selected ranks.");
    if (ctx->shows_slowest) slowest_note(ns, rows);
}

/* One line of the box: its text padded to w, or past the edge when longer. */
static void box_line(sp_textbuf *out, const char *text, size_t w, int ascii) {
    sp_textbuf_append(out, ascii ? "  | " : "  \xe2\x94\x82 ");
    sp_table_append_text(out, text);
    size_t len = sp_utf8_length(text);
    if (len > w) {
        sp_textbuf_putc(out, '\n');
        return;
    }
    sp_textbuf_repeat(out, " ", w - len);
    sp_textbuf_append(out, ascii ? " |\n" : " \xe2\x94\x82\n");
}

/* A note over several box lines, broken at spaces. Continuation lines are
 * indented: a command's under its start (after "  Inspect:  "), ending each
 * broken line with " \\" as a shell continuation; a text's by two spaces. */
static void wrapped(sp_textbuf *out, const char *text, int command, size_t w, int ascii) {
    size_t indent = command ? 12 : 2, room = command ? w - 2 : w;
    sp_textbuf line = SP_TEXTBUF_INIT;
    const char *p = text;
    int first = 1;
    while (*p) {
        if (!first) sp_textbuf_repeat(&line, " ", indent);
        size_t base = sp_utf8_length(sp_textbuf_str(&line) ? sp_textbuf_str(&line) : "");
        size_t used = base;
        const char *q = p;
        int words = 0;
        while (*q) { /* take words while they fit (always one) */
            const char *end = q;
            while (*end && *end != ' ')
                end++;
            sp_textbuf word = SP_TEXTBUF_INIT;
            sp_textbuf_append_n(&word, q, (size_t)(end - q));
            size_t wlen = sp_utf8_length(sp_textbuf_str(&word) ? sp_textbuf_str(&word) : "");
            sp_textbuf_free(&word);
            size_t need = used + (words ? 1 : 0) + wlen;
            if (words && need > (*end ? room : w)) break;
            if (words) sp_textbuf_putc(&line, ' ');
            sp_textbuf_append_n(&line, q, (size_t)(end - q));
            used = need;
            words++;
            q = *end ? end + 1 : end;
        }
        while (*q == ' ')
            q++;
        if (*q && command) sp_textbuf_append(&line, " \\");
        box_line(out, sp_textbuf_str(&line) ? sp_textbuf_str(&line) : "", w, ascii);
        sp_textbuf_free(&line);
        line = (sp_textbuf)SP_TEXTBUF_INIT;
        p = q;
        first = 0;
    }
    sp_textbuf_free(&line);
}

void sp_notes_box(sp_textbuf *out, const sp_table_rows *rows, const sp_notes_context *ctx) {
    notes ns = {{NULL}, {0}, 0, 0};
    collect(&ns, rows, ctx);
    if (ns.failed) {
        out->failed = 1;
    } else {
        const char *h = ctx->ascii ? "-" : "\xe2\x94\x80";
        size_t w = 0;
        for (size_t i = 0; i < ns.n; i++) {
            size_t len = sp_utf8_length(ns.text[i]);
            if (len > w) w = len;
        }
        /* a note longer than the fitted box wraps at spaces (commands with " \\");
         * only a word longer than the box, such as a long path, passes its edge */
        if (ctx->max_width && w + 6 > ctx->max_width)
            w = ctx->max_width > 26 ? ctx->max_width - 6 : 20;
        sp_textbuf_append(out, ctx->ascii ? "  +- Info " : "  \xe2\x95\xad\xe2\x94\x80 Info ");
        sp_textbuf_repeat(out, h, w >= 6 ? w - 5 : 1);
        sp_textbuf_append(out, ctx->ascii ? "+\n" : "\xe2\x95\xae\n");
        for (size_t i = 0; i < ns.n; i++) {
            if (sp_utf8_length(ns.text[i]) <= w)
                box_line(out, ns.text[i], w, ctx->ascii);
            else
                wrapped(out, ns.text[i], ns.command[i], w, ctx->ascii);
        }
        sp_textbuf_append(out, ctx->ascii ? "  +" : "  \xe2\x95\xb0");
        sp_textbuf_repeat(out, h, w + 2);
        sp_textbuf_append(out, ctx->ascii ? "+\n" : "\xe2\x95\xaf\n");
    }
    for (size_t i = 0; i < ns.n; i++)
        free(ns.text[i]);
}
