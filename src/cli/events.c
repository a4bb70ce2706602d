/*
 * scope-profiler events FILE: one row per recorded call (Python's events()
 * / to_events_dataframe(), python_semantics.md §2.5), as CSV (default) or
 * JSON, streamed so that a file of any size prints in constant memory.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_args.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_select.h"
#include "cli/cli_text.h"

enum { OPT_FORMAT = 1, OPT_ABSOLUTE, OPT_ALIGN_CLOCKS };

static const cli_option OPTIONS[] = {
    {"format", 0, CLI_VALUE, OPT_FORMAT},
    {"absolute", 0, CLI_FLAG, OPT_ABSOLUTE},
    {"align-clocks", 0, CLI_FLAG, OPT_ALIGN_CLOCKS},
    CLI_SELECT_OPTIONS,
};

typedef struct events_options {
    int json;
    int absolute;
    int align_clocks;
    cli_select select;
} events_options;

static int on_option(void *ctx, int id, const char *value) {
    events_options *o = ctx;
    switch (id) {
    case OPT_FORMAT:
        if (strcmp(value, "csv") == 0 || strcmp(value, "json") == 0) {
            o->json = value[0] == 'j';
            return 0;
        }
        return cli_value_error("events", "unknown --format \"%s\": choose csv or json", value);
    case OPT_ABSOLUTE:
        o->absolute = 1;
        return 0;
    case OPT_ALIGN_CLOCKS:
        o->align_clocks = 1;
        return 0;
    default:
        return cli_select_option(&o->select, id, value);
    }
}

#define CSV_EOL "\r\n" /* RFC 4180, like the library's summary CSV */

static void put_float(FILE *out, double v) {
    char num[CLI_FLOAT_REPR_SIZE];
    cli_float_repr(v, num);
    fputs(num, out);
}

static void csv_row(FILE *out, const sp_event *e) {
    cli_put_csv_field(out, e->name);
    fprintf(out, ",%" PRIu32 ",%" PRIu64 ",", e->rank, e->call_index);
    put_float(out, e->start);
    fputc(',', out);
    put_float(out, e->end);
    fputc(',', out);
    put_float(out, e->duration);
    fputc(',', out);
    if (e->thread >= 0) fprintf(out, "%" PRId64, e->thread);
    fputs(CSV_EOL, out);
}

static void json_row(FILE *out, const sp_event *e, int first) {
    fputs(first ? "\n  {\n    \"name\": " : ",\n  {\n    \"name\": ", out);
    cli_put_json_string(out, e->name);
    fprintf(out, ",\n    \"rank\": %" PRIu32 ",\n    \"call_index\": %" PRIu64 ",\n    \"start\": ",
            e->rank, e->call_index);
    put_float(out, e->start);
    fputs(",\n    \"end\": ", out);
    put_float(out, e->end);
    fputs(",\n    \"duration\": ", out);
    put_float(out, e->duration);
    if (e->thread >= 0)
        fprintf(out, ",\n    \"thread\": %" PRId64 "\n  }", e->thread);
    else
        fputs(",\n    \"thread\": null\n  }", out);
}

static void print_events(FILE *out, sp_event_iter *it, int json) {
    sp_event e;
    size_t n = 0;
    if (json)
        fputc('[', out);
    else
        fputs("name,rank,call_index,start,end,duration,thread" CSV_EOL, out);
    for (; sp_events_next(it, &e); n++) {
        if (json)
            json_row(out, &e, n == 0);
        else
            csv_row(out, &e);
    }
    if (json) fputs(n ? "\n]\n" : "]\n", out);
}

static int run(const char *path, events_options *o) {
    sp_error err = {0};
    cli_reading(path);
    sp_results *r = sp_read(path, &err);
    if (!r) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    sp_event_options eo = {0};
    eo.filter = cli_select_filter(&o->select);
    int checked = cli_select_check(&o->select, r, path);
    if (checked) {
        sp_results_free(r);
        return checked;
    }
    eo.absolute = o->absolute;
    eo.raw_clocks = !o->align_clocks; /* by default as the Python package's events() */
    sp_event_iter *it = sp_events_open(r, &eo, &err);
    int rc = 0;
    if (it) {
        print_events(stdout, it, o->json);
        sp_events_close(it);
    } else {
        cli_error_sp(&err);
        rc = CLI_EXIT_USAGE;
    }
    sp_results_free(r);
    return rc;
}

int cli_events(int argc, char **argv) {
    static const cli_command_spec spec = {"events", cli_help_events, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    events_options o;
    memset(&o, 0, sizeof o);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc && args.count > 1) /* counted as given, repeats included */
        rc = cli_usage_error("events", "takes exactly one FILE (%zu given)", args.count);
    if (!rc) rc = cli_expand_files("events", &args, &files);
    if (!rc && files.count != 1)
        rc = cli_usage_error("events", "takes exactly one FILE (\"%s\" matches %zu files)",
                             args.items[0], files.count);
    if (!rc) rc = run(files.items[0], &o);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_select_free(&o.select);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
