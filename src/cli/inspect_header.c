/* inspect: the banner of one file (python_semantics.md §7.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/terminal_text.h"
#include "cli/cli_colour.h"
#include "cli/cli_wrap.h"
#include "cli/inspect.h"

#define RULE "=============================================================================="

/* The path as Python's pathlib prints it: repeated "/" collapsed (a leading
 * "//" kept), "." components and a trailing "/" dropped; "" becomes ".".
 * Writes into out (at least strlen(path) + 2 bytes). */
static void pathlib_text(const char *path, char *out) {
    char *o = out;
    const char *p = path;
    if (p[0] == '/') {
        *o++ = '/';
        if (p[1] == '/' && p[2] != '/') *o++ = '/';
        while (*p == '/')
            p++;
    }
    while (*p) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (!(len == 1 && p[0] == '.')) {
            if (o > out && o[-1] != '/') *o++ = '/';
            memcpy(o, p, len);
            o += len;
        }
        p += len;
        while (*p == '/')
            p++;
    }
    if (o == out) *o++ = '.';
    *o = '\0';
}

static int any_region_has_calls(const sp_results *r) {
    for (size_t i = 0; i < sp_results_num_regions(r); i++)
        if (sp_mpi_region_num_calls(sp_results_region_at(r, i)) > 0) return 1;
    return 0;
}

static double file_mib(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / (1024.0 * 1024.0) : 0.0;
}

/* "0.0736135 s" under --seconds (the Python inspect's %.6g), else "73.6 ms". */
static void seconds_text(char *out, size_t size, double s, const inspect_options *o) {
    if (o->seconds)
        snprintf(out, size, "%.6g s", s);
    else
        inspect_duration(out, size, s, o);
}

/* The counts line: the parts joined by ", " as the Python inspect prints them,
 * broken after a comma where the line would pass width (0 = never). */
static void print_counts(FILE *out, char parts[][96], size_t n, size_t width) {
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(parts[i]);
        if (i) {
            fputc(',', out);
            col++;
            if (width && col + 1 + len > width) {
                fputc('\n', out);
                col = 0;
            } else {
                fputc(' ', out);
                col++;
            }
        }
        fputs(parts[i], out);
        col += len;
    }
}

void inspect_print_header(FILE *out, const sp_results *r, const char *path,
                          const inspect_options *o) {
    char *shown = malloc(strlen(path) + 2);
    const char *label = sp_results_label(r);
    /* the rule is Python's 78 columns, shorter only when asked to fit */
    int rule = o->fit_to && o->fit_to < strlen(RULE) ? (int)o->fit_to : (int)strlen(RULE);
    fprintf(out, "%.*s\n", rule, RULE);
    if (shown) pathlib_text(path, shown);
    char *safe_label = label ? sp_terminal_text(label) : NULL;
    char *safe_path = sp_terminal_text(shown ? shown : path);
    const char *path_text = safe_path ? safe_path : "?";
    if (label)
        cli_print_title_fit(out, o->colour, o->fit_to, "%s - %s", safe_label ? safe_label : "?",
                            path_text);
    else
        cli_print_title_fit(out, o->colour, o->fit_to, "%s", path_text);
    free(safe_label);
    free(safe_path);
    free(shown);
    char parts[5][96];
    size_t n = 0;
    snprintf(parts[n++], sizeof parts[0], "%zu rank(s)", sp_results_num_ranks(r));
    snprintf(parts[n++], sizeof parts[0], "%zu region(s)", sp_results_num_regions(r));
    snprintf(parts[n++], sizeof parts[0], "%.2f MiB", file_mib(path));
    char d[32];
    if (any_region_has_calls(r)) {
        seconds_text(d, sizeof d, sp_results_time_span(r), o);
        snprintf(parts[n++], sizeof parts[0], "%s wall clock", d);
    }
    double total = sp_results_total_time(r);
    if (!isnan(total)) {
        seconds_text(d, sizeof d, total, o);
        snprintf(parts[n++], sizeof parts[0], "%s total (setup to finalize)", d);
    }
    print_counts(out, parts, n, o->fit_to);
    fprintf(out, "\n%.*s\n\n", rule, RULE);
}
