/* inspect: the summary table, the machine-readable rows, the source texts. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_colour.h"
#include "cli/cli_error.h"
#include "cli/cli_source.h"
#include "cli/cli_text.h"
#include "cli/inspect.h"

static sp_print_options print_options(const inspect_options *o) {
    sp_print_options p = {0};
    p.sort = o->sort;
    p.columns = o->columns.count ? cli_list_items(&o->columns) : NULL;
    p.num_columns = o->columns.count;
    p.filter = o->filter;
    p.ascii = o->ascii;
    p.percentage_mode = o->percentage_mode;
    return p;
}

/* Counts the data lines of an ASCII table whose first cell is not blank. */
static size_t count_filled_lines(const char *text) {
    size_t n = 0;
    int header_seen = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > 4 && strncmp(line, "  | ", 4) == 0 && line[4] != ' ') {
            if (header_seen) n++;
            header_seen = 1;
        }
        line += len + (nl ? 1 : 0);
    }
    return n;
}

/*
 * The number of rows print_summary shows, "(own)" rows aside (the title of
 * the Python inspect's table). The public API does not report it, so this
 * prints the table with only the calls column, where "(own)" rows are the
 * rows with an empty cell, and counts the others.
 */
static int count_table_rows(const sp_results *r, const inspect_options *o, size_t *count) {
    static const char *const calls_column[] = {"calls"};
    sp_print_options p = print_options(o);
    p.columns = calls_column;
    p.num_columns = 1;
    p.ascii = 1;
    p.suppress_notes = 1;
    p.title = "";
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) return cli_out_of_memory();
    sp_error err = {0};
    sp_status st = sp_print_summary(r, f, &p, &err);
    if (fclose(f) != 0 && st == SP_OK) st = SP_ERR_OUT_OF_MEMORY;
    if (st == SP_OK) *count = count_filled_lines(text);
    free(text);
    if (st == SP_OK) return 0;
    if (st == SP_ERR_OUT_OF_MEMORY && !err.message[0]) return cli_out_of_memory();
    cli_error_sp(&err);
    return CLI_EXIT_USAGE;
}

int inspect_print_regions(FILE *out, const sp_results *r, const inspect_options *o) {
    size_t rows = 0;
    int rc = count_table_rows(r, o, &rows);
    if (rc) return rc;
    char title[64];
    snprintf(title, sizeof title, "Regions (%zu)", rows);
    sp_print_options p = print_options(o);
    p.title = title;
    sp_error err = {0};
    if (sp_print_summary(r, out, &p, &err) == SP_OK) return 0;
    cli_error_sp(&err);
    return CLI_EXIT_USAGE;
}

int inspect_print_rows(FILE *out, const sp_results *r, const inspect_options *o) {
    sp_error err = {0};
    sp_status st = o->format == INSPECT_JSON
                       ? sp_write_summary_json(r, out, &o->filter, o->per_rank, &err)
                       : sp_write_summary_csv(r, out, &o->filter, o->per_rank, &err);
    if (st == SP_OK) return 0;
    cli_error_sp(&err);
    return CLI_EXIT_USAGE;
}

static void print_region_list(FILE *out, const sp_results *r) {
    size_t n = sp_results_num_regions(r);
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names) {
        fputs("[...]", out);
        return;
    }
    for (size_t i = 0; i < n; i++)
        names[i] = sp_results_region_name(r, i);
    cli_put_list_repr(out, names, n);
    free(names);
}

/* Prints the source lines, each indented; trailing line breaks dropped. */
static void print_source_lines(FILE *out, const char *text) {
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = p;
        while (eol < end && *eol != '\n' && *eol != '\r')
            eol++;
        fprintf(out, "    %.*s\n", (int)(eol - p), p);
        if (eol < end && *eol == '\r' && eol + 1 < end && eol[1] == '\n') eol++;
        p = eol + 1;
    }
}

static void print_one_source(FILE *out, const sp_results *r, const char *name) {
    if (sp_results_find(r, name) < 0) {
        fputs("  ", out);
        cli_put_str_repr(out, name);
        fputs(": no such region. Available regions: ", out);
        print_region_list(out, r);
        fputc('\n', out);
        return;
    }
    cli_source src;
    if (!cli_region_source(r, name, &src)) {
        fprintf(out, "  %s: source not captured\n", name);
        return;
    }
    fprintf(out, "  %s  (%s:", name, src.file && *src.file ? src.file : "None");
    if (src.line >= 0)
        fprintf(out, "%lld)\n", (long long)src.line);
    else
        fputs("None)\n", out);
    print_source_lines(out, src.text);
}

void inspect_print_source(FILE *out, const sp_results *r, const inspect_options *o) {
    cli_print_title(out, o->colour, "Source (%zu)", o->source.count);
    for (size_t i = 0; i < o->source.count; i++)
        print_one_source(out, r, o->source.items[i]);
    fputc('\n', out);
}
