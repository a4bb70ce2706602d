/*
 * scope-profiler events FILE: one row per recorded call (Python's events()
 * / to_events_dataframe(), python_semantics.md §2.5), as CSV (default) or
 * JSON, streamed so that a file of any size prints in constant memory.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_args.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "common/decimal_format.h"
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
    case OPT_FORMAT: {
        static const char *const formats[] = {"csv", "json"};
        int i = cli_choice_index(value, formats, sizeof formats / sizeof *formats);
        if (i < 0)
            return cli_choice_error("events", "--format", value, formats,
                                    sizeof formats / sizeof *formats);
        o->json = i == 1;
        return 0;
    }
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

/* One output row is built in memory and written with one fwrite: tens of
 * millions of rows make per-field stdio calls the dominant cost. */
typedef struct row_buf {
    char text[1024];
    size_t len;
} row_buf;

static void put_bytes(row_buf *b, const char *s, size_t n) {
    if (n > sizeof b->text - b->len) n = sizeof b->text - b->len; /* names are cached apart */
    memcpy(b->text + b->len, s, n);
    b->len += n;
}

static void put_text(row_buf *b, const char *s) {
    put_bytes(b, s, strlen(s));
}

static void put_u64(row_buf *b, uint64_t v) {
    char digits[24];
    put_bytes(b, digits, sp_format_u64(v, digits));
}

static void put_i64(row_buf *b, int64_t v) {
    if (v < 0) {
        put_bytes(b, "-", 1);
        put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(b, (uint64_t)v);
    }
}

static void put_float(row_buf *b, double v) {
    char num[CLI_FLOAT_REPR_SIZE];
    cli_float_repr(v, num);
    put_text(b, num);
}

/* The region name as the format quotes it, made once per run of rows of
 * one region (the iterator returns them region by region). */
typedef struct name_cache {
    const char *name; /* the last name quoted (the model's pointer) */
    char *quoted;     /* owned */
    size_t len;
} name_cache;

static int quote_name(name_cache *c, const char *name, int json) {
    if (c->name == name && c->quoted) return 0;
    free(c->quoted);
    c->quoted = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&c->quoted, &size);
    if (!mem) return -1;
    if (json)
        cli_put_json_string(mem, name);
    else
        cli_put_csv_field(mem, name);
    if (fclose(mem) != 0) return -1;
    c->name = name;
    c->len = size;
    return 0;
}

static void csv_row(row_buf *b, const sp_event *e) {
    put_text(b, ",");
    put_u64(b, e->rank);
    put_text(b, ",");
    put_u64(b, e->call_index);
    put_text(b, ",");
    put_float(b, e->start);
    put_text(b, ",");
    put_float(b, e->end);
    put_text(b, ",");
    put_float(b, e->duration);
    put_text(b, ",");
    if (e->thread >= 0) put_i64(b, e->thread);
    put_text(b, CSV_EOL);
}

static void json_row(row_buf *b, const sp_event *e) {
    put_text(b, ",\n    \"rank\": ");
    put_u64(b, e->rank);
    put_text(b, ",\n    \"call_index\": ");
    put_u64(b, e->call_index);
    put_text(b, ",\n    \"start\": ");
    put_float(b, e->start);
    put_text(b, ",\n    \"end\": ");
    put_float(b, e->end);
    put_text(b, ",\n    \"duration\": ");
    put_float(b, e->duration);
    put_text(b, ",\n    \"thread\": ");
    if (e->thread >= 0)
        put_i64(b, e->thread);
    else
        put_text(b, "null");
    put_text(b, "\n  }");
}

/* Progress on a terminal (stderr) once the work has taken PROGRESS_AFTER
 * seconds (SCOPE_PROFILER_PROGRESS_AFTER overrides), redrawn a few times a
 * second and cleared at the end. */
#define PROGRESS_AFTER 2.0
#define PROGRESS_EVERY 0.25

typedef struct progress {
    int on; /* stderr is a terminal */
    double start, after, next;
    uint64_t total; /* calls in the file (the selection may hold fewer) */
    int shown;
} progress;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void progress_start(progress *p, const sp_results *r) {
    memset(p, 0, sizeof *p);
    p->on = isatty(STDERR_FILENO);
    if (!p->on) return;
    const char *after = getenv("SCOPE_PROFILER_PROGRESS_AFTER");
    p->after = after && *after ? atof(after) : PROGRESS_AFTER;
    p->start = now_s();
    p->next = p->start + p->after;
    for (size_t i = 0; i < sp_results_num_regions(r); i++)
        p->total += sp_mpi_region_num_calls(sp_results_region_at(r, i));
}

static void progress_update(progress *p, uint64_t done) {
    double t = now_s();
    if (t < p->next) return;
    p->next = t + PROGRESS_EVERY;
    p->shown = 1;
    fprintf(
        stderr, "\r\033[Kscope-profiler: events: %" PRIu64 " of %" PRIu64 " calls (%.0f%%), %.0f s",
        done, p->total, p->total ? 100.0 * (double)done / (double)p->total : 100.0, t - p->start);
}

static void progress_end(const progress *p) {
    if (p->shown) fputs("\r\033[K", stderr);
}

static int print_events(FILE *out, sp_event_iter *it, const sp_results *r, int json) {
    sp_event e;
    uint64_t n = 0;
    name_cache names = {NULL, NULL, 0};
    progress prog;
    progress_start(&prog, r);
    if (json)
        fputc('[', out);
    else
        fputs("name,rank,call_index,start,end,duration,thread" CSV_EOL, out);
    int rc = 0;
    for (; sp_events_next(it, &e); n++) {
        if (quote_name(&names, e.name, json) != 0) {
            rc = -1;
            break;
        }
        row_buf b = {.len = 0};
        if (json) {
            fputs(n == 0 ? "\n  {\n    \"name\": " : ",\n  {\n    \"name\": ", out);
            fwrite(names.quoted, 1, names.len, out);
            json_row(&b, &e);
        } else {
            fwrite(names.quoted, 1, names.len, out);
            csv_row(&b, &e);
        }
        fwrite(b.text, 1, b.len, out);
        if (prog.on && (n & 0xffff) == 0) progress_update(&prog, n);
    }
    progress_end(&prog);
    free(names.quoted);
    if (json && !rc) fputs(n ? "\n]\n" : "]\n", out);
    return rc;
}

static int run(const char *path, events_options *o) {
    sp_error err = {0};
    cli_reading(path);
    sp_results *r = cli_select_read_streamed(&o->select, path, &err);
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
        static char out_buffer[1 << 20];
        setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
        if (print_events(stdout, it, r, o->json) != 0) {
            cli_error("events: out of memory");
            rc = CLI_EXIT_USAGE;
        } else if (sp_events_status(it, &err) != SP_OK) {
            fflush(stdout);
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        }
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
