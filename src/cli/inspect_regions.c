/* inspect: the summary table, the machine-readable rows, the source texts. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_colour.h"
#include "cli/cli_error.h"
#include "cli/cli_text.h"
#include "cli/cli_wrap.h"
#include "cli/inspect.h"
#include "present/table.h"

static sp_print_options print_options(const inspect_options *o) {
    sp_print_options p = {0};
    p.sort = o->sort;
    p.columns = o->columns.count ? cli_list_items(&o->columns) : NULL;
    p.num_columns = o->columns.count;
    p.filter = o->filter;
    p.ascii = o->ascii;
    p.percentage_mode = o->percentage_mode;
    p.suppress_notes = o->suppress_notes;
    p.top = o->top;
    p.max_width = o->fit_to;
    p.max_depth = o->max_depth;
    return p;
}

int inspect_print_regions(FILE *out, const sp_results *r, const inspect_options *o) {
    sp_print_options p = print_options(o);
    if (!p.columns) p.columns = sp_table_parallel_columns(r, &p.num_columns);
    p.title = "Regions";
    p.title_counts_rows = 1; /* "Regions (N)", as the Python inspect titles it */
    sp_error err = {0};
    if (sp_print_summary_units(r, out, &p, 0, !o->seconds, &err) == SP_OK) return 0;
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
        char *one = strndup(p, (size_t)(eol - p));
        fprintf(out, "    %s\n", one ? cli_shown(one) : "?");
        free(one);
        if (eol < end && *eol == '\r' && eol + 1 < end && eol[1] == '\n') eol++;
        p = eol + 1;
    }
}

/* Why a region has no captured text, from what the file says. */
static const char *why_no_source(const sp_results *r, const char *file) {
    sp_metadata_item on;
    if (!file || !*file) return "no source location was recorded for it";
    if (!sp_results_metadata_find(r, "capture_region_source", &on) || on.int_value == 0)
        return "the run did not capture sources: record with SCOPE_PROFILER_CAPTURE_SOURCE=1";
    return "its file could not be read at finalize: the run named it on stderr";
}

static void print_one_source(FILE *out, const sp_results *r, const char *name, size_t width) {
    if (sp_results_find(r, name) < 0) {
        fputs("  ", out);
        cli_put_str_repr(out, name);
        fputs(": no such region. Available regions: ", out);
        print_region_list(out, r);
        fputc('\n', out);
        return;
    }
    const char *file, *text;
    int64_t line;
    if (!sp_mpi_region_source(sp_results_get(r, name, NULL), &file, &line, &text)) {
        char note[1024];
        snprintf(note, sizeof note, "  %s: source not captured (%s)", cli_shown(name),
                 why_no_source(r, file));
        cli_print_wrapped(out, note, width, 2);
        return;
    }
    fprintf(out, "  %s  (%s:", cli_shown(name), *file ? cli_shown(file) : "None");
    if (line >= 0)
        fprintf(out, "%lld)\n", (long long)line);
    else
        fputs("None)\n", out);
    print_source_lines(out, text);
}

void inspect_print_source(FILE *out, const sp_results *r, const inspect_options *o) {
    cli_print_title(out, o->colour, "Source (%zu)", o->source.count);
    for (size_t i = 0; i < o->source.count; i++)
        print_one_source(out, r, o->source.items[i], o->fit_to);
    fputc('\n', out);
}
