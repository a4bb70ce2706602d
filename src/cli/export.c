/*
 * scope-profiler export FORMAT FILE -o OUT: trace exports for Perfetto,
 * chrome://tracing, speedscope and flame graphs, and the doors into Hatchet,
 * Thicket, OTF2 tools and pstats (scope_profiler/export.h),
 * with the selections that keep large runs viewable, a size estimate before
 * writing and a refusal above --max-size.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_depth.h"
#include "cli/cli.h"
#include "cli/cli_shown.h"
#include "cli/cli_contain.h"
#include "cli/cli_args.h"
#include "cli/cli_choice.h"
#include "cli/cli_error.h"
#include "cli/cli_files.h"
#include "cli/cli_select.h"
#include "cli/export_data.h"
#include "scope_profiler/export.h"

const char cli_help_export[] =
    "Usage: scope-profiler export FORMAT FILE -o OUT [OPTIONS]\n"
    "       scope-profiler export hatchet FILE... -o DIR [OPTIONS]\n"
    "       scope-profiler export data FILE... -o DIR [--data-format csv|json]\n"
    "\n"
    "Writes the profile's calls for a timeline or flame-graph viewer. FORMAT:\n"
    "  chrome-trace   Trace Event Format JSON: chrome://tracing, ui.perfetto.dev,\n"
    "                 speedscope (one \"X\" event per call; pid = rank, tid = thread)\n"
    "  perfetto       Perfetto's protobuf trace: ui.perfetto.dev, trace_processor\n"
    "                 (opens the largest runs; a track per rank and thread)\n"
    "  speedscope     speedscope's JSON: one evented profile per rank and thread\n"
    "  folded         \"a;b;c NS\" lines (exclusive ns per call path) for\n"
    "                 flamegraph.pl, inferno and speedscope\n"
    "  hatchet        Caliper's json-split call tree for Hatchet (from_caliper) and\n"
    "                 Thicket: time (inc), time, count per path and rank, the run's\n"
    "                 metadata as globals; several FILEs: -o DIR, one STEM.json each\n"
    "  pstats         Python's pstats file (cProfile's format): snakeviz,\n"
    "                 python3 -m pstats; calls, own and cumulative time per region\n"
    "                 with its callers\n"
    "  otf2           an OTF2 archive directory (Vampir, otf2-print): a location per\n"
    "                 rank and thread, an enter and a leave event per call\n"
    "  data           the numbers behind the charts, as the Python package's plot\n"
    "                 --export data: DIR/gantt_data and DIR/durations_data\n"
    "  extrap         many runs as Extra-P's JSON Lines input (its own options:\n"
    "                 scope-profiler export extrap --help)\n"
    "\n"
    "Output:\n"
    "  -o, --output OUT     the file to write (\"-\": standard output); a name\n"
    "                       ending in .gz is gzip-compressed\n"
    "  --max-size SIZE      refuse an output estimated above SIZE (e.g. 2GB, 300MB,\n"
    "                       0 = no limit); default 512MB for chrome-trace and\n"
    "                       speedscope, no limit for perfetto and folded\n"
    "  --dry-run            print the size estimate and the number of selected\n"
    "                       calls, write nothing\n"
    "  --no-args            chrome-trace: no per-call args (speedscope shows each\n"
    "                       call with args as a frame of its own)\n"
    "  --per-rank           folded: the rank (\"rank 3\") is the first frame\n"
    "  --aggregate-ranks    hatchet: one row per call path, the mean over the ranks\n"
    "                       (and the largest and smallest rank), for Thicket\n"
    "  --data-format F      data: csv (default) or json\n"
    "  --duration-metrics M...  data: total (default), avg, min, max, std\n"
    "  --x KEY              data: the speedup_data axis, mpi_size (default) or a\n"
    "                       numeric metadata key\n"
    "  --max-depth N        folded: at most N frames a line (default 256); deeper\n"
    "                       calls end in one frame \"...(K levels)\" with their time\n"
    "  --raw-clock          times as each rank stored them (by default ranks are\n"
    "                       aligned to rank 0's clock with the stored offsets)\n"
    "\n"
    "Selection (a call is kept when it passes all; its ancestors are kept too,\n"
    "so call paths stay whole):\n"
    "  --include RE...      regions whose name matches one of these regular\n"
    "                       expressions (anchored at the start)\n"
    "  --exclude RE...      not the regions whose name matches one of these\n"
    "  --ranks LIST...      these ranks only: 0,2,4-7\n"
    "  --threads LIST...    these thread ids only: 0,3-5\n"
    "  --window START:END   calls overlapping this span, seconds from the run's\n"
    "                       start (either side may be empty: 2.5: or :10)\n"
    "  --min-duration D     calls of at least D (seconds, or with a unit: 2ms,\n"
    "                       50us, 800ns, 1.5s)\n"
    "  --max-events N       the N longest calls\n"
    "\n"
    "The estimated size is printed on stderr for outputs above 10 MB.\n"
    "\n"
    "Examples:\n"
    "  scope-profiler export perfetto run.h5 -o run.pftrace\n"
    "  scope-profiler export chrome-trace run.h5 -o run.json.gz --ranks 0-3 \\\n"
    "      --window 10:12\n"
    "  scope-profiler export speedscope run.h5 -o run.ss.json --max-events 100000\n"
    "  scope-profiler export folded run.h5 -o - --per-rank | flamegraph.pl >fl.svg\n"
    "  scope-profiler export hatchet run.h5 -o run.json\n"
    "  scope-profiler export pstats run.h5 -o run.prof && snakeviz run.prof\n"
    "  scope-profiler export otf2 run.h5 -o run-otf2\n"
    "  scope-profiler export data run_1.h5 run_2.h5 -o data --data-format json\n";

enum {
    OPT_OUTPUT = 1,
    OPT_MAX_SIZE,
    OPT_PER_RANK,
    OPT_NO_ARGS,
    OPT_RAW_CLOCK,
    OPT_THREADS,
    OPT_WINDOW,
    OPT_MIN_DURATION,
    OPT_MAX_EVENTS,
    OPT_DRY_RUN,
    OPT_AGGREGATE_RANKS,
    OPT_DATA_FORMAT,
    OPT_DURATION_METRICS,
    OPT_MAX_DEPTH,
    OPT_X
};

static const cli_option OPTIONS[] = {
    {"output", 'o', CLI_VALUE, OPT_OUTPUT},
    {"max-size", 0, CLI_VALUE, OPT_MAX_SIZE},
    {"per-rank", 0, CLI_FLAG, OPT_PER_RANK},
    {"no-args", 0, CLI_FLAG, OPT_NO_ARGS},
    {"raw-clock", 0, CLI_FLAG, OPT_RAW_CLOCK},
    {"threads", 0, CLI_LIST, OPT_THREADS},
    {"window", 0, CLI_VALUE, OPT_WINDOW},
    {"min-duration", 0, CLI_VALUE, OPT_MIN_DURATION},
    {"max-events", 0, CLI_VALUE, OPT_MAX_EVENTS},
    {"dry-run", 0, CLI_FLAG, OPT_DRY_RUN},
    {"aggregate-ranks", 0, CLI_FLAG, OPT_AGGREGATE_RANKS},
    {"data-format", 0, CLI_VALUE, OPT_DATA_FORMAT},
    {"duration-metrics", 0, CLI_LIST, OPT_DURATION_METRICS},
    {"max-depth", 0, CLI_VALUE, OPT_MAX_DEPTH},
    {"x", 0, CLI_VALUE, OPT_X},
    CLI_SELECT_OPTIONS,
};

#define DEFAULT_JSON_LIMIT 512000000ULL
#define ANNOUNCE_BYTES     10000000ULL

typedef struct export_options {
    const char *output;
    int dry_run;
    int has_max_size;
    int has_max_depth;
    uint64_t max_size;
    sp_export_options ex;
    int64_t *threads;
    size_t num_threads, threads_cap;
    cli_select select;
    int has_data_format, data_json;
    cli_list metrics;
    const char *x; /* data: the speedup axis (--x) */
} export_options;

/* A number with an optional unit from units[] (name, factor); 0 on success. */
typedef struct unit {
    const char *name;
    double factor;
} unit;

static int parse_with_unit(const char *text, const unit *units, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v < 0) return -1;
    while (*end == ' ')
        end++;
    if (!*end) {
        *out = v * units[0].factor;
        return 0;
    }
    for (const unit *u = units; u->name; u++)
        if (strcasecmp(end, u->name) == 0) {
            *out = v * u->factor;
            return 0;
        }
    return -1;
}

static const unit SIZE_UNITS[] = {{"B", 1},
                                  {"k", 1e3},
                                  {"kB", 1e3},
                                  {"M", 1e6},
                                  {"MB", 1e6},
                                  {"G", 1e9},
                                  {"GB", 1e9},
                                  {"T", 1e12},
                                  {"TB", 1e12},
                                  {"KiB", 1024.},
                                  {"MiB", 1048576.},
                                  {"GiB", 1073741824.},
                                  {"TiB", 1099511627776.},
                                  {NULL, 0}};
static const unit TIME_UNITS[] = {{"s", 1},     {"ms", 1e-3}, {"us", 1e-6},
                                  {"µs", 1e-6}, {"ns", 1e-9}, {NULL, 0}};

static int add_threads(export_options *o, const char *spec) {
    const char *p = spec;
    while (*p) {
        char *end;
        errno = 0;
        long long lo = strtoll(p, &end, 10), hi = lo;
        if (end == p || errno) goto bad;
        p = end;
        if (*p == '-') {
            hi = strtoll(p + 1, &end, 10);
            if (end == p + 1 || errno || hi < lo || hi - lo > 1000000) goto bad;
            p = end;
        }
        for (long long t = lo; t <= hi; t++) {
            if (o->num_threads == o->threads_cap) {
                size_t cap = o->threads_cap ? 2 * o->threads_cap : 16;
                int64_t *grown = realloc(o->threads, cap * sizeof *grown);
                if (!grown) return cli_out_of_memory();
                o->threads = grown;
                o->threads_cap = cap;
            }
            o->threads[o->num_threads++] = t;
        }
        if (*p == ',') {
            p++;
            if (!*p) goto bad;
        } else if (*p) {
            goto bad;
        }
    }
    return 0;
bad:
    return cli_value_error("export",
                           "bad --threads value \"%s\": use thread ids and ranges, "
                           "e.g. 0,2,4-7",
                           spec);
}

static int parse_window(export_options *o, const char *text) {
    const char *colon = strchr(text, ':');
    if (!colon) goto bad;
    double lo = -INFINITY, hi = INFINITY;
    char *end;
    if (colon != text) {
        lo = strtod(text, &end);
        if (end != colon || !isfinite(lo)) goto bad;
    }
    if (colon[1]) {
        hi = strtod(colon + 1, &end);
        if (*end || !isfinite(hi)) goto bad;
    }
    if (hi < lo) goto bad;
    o->ex.select.has_window = 1;
    o->ex.select.window_start = lo;
    o->ex.select.window_end = hi;
    return 0;
bad:
    return cli_value_error("export",
                           "bad --window value \"%s\": use START:END in seconds from the run's "
                           "start, START <= END (e.g. 2.5:4, 10: or :0.5)",
                           text);
}

static int on_option(void *ctx, int id, const char *value) {
    export_options *o = ctx;
    double v;
    switch (id) {
    case OPT_OUTPUT:
        o->output = value;
        return 0;
    case OPT_MAX_SIZE:
        if (strcasecmp(value, "none") == 0) value = "0";
        if (parse_with_unit(value, SIZE_UNITS, &v) || v >= 1.8e19)
            return cli_value_error("export",
                                   "bad --max-size value \"%s\": use a size such as 300MB, 2GB, "
                                   "1.5GiB or 0 (no limit)",
                                   value);
        o->has_max_size = 1;
        o->max_size = (uint64_t)v;
        return 0;
    case OPT_DRY_RUN:
        o->dry_run = 1;
        return 0;
    case OPT_PER_RANK:
        o->ex.per_rank = 1;
        return 0;
    case OPT_NO_ARGS:
        o->ex.no_args = 1;
        return 0;
    case OPT_AGGREGATE_RANKS:
        o->ex.aggregate_ranks = 1;
        return 0;
    case OPT_DATA_FORMAT:
        if (strcmp(value, "csv") != 0 && strcmp(value, "json") != 0)
            return cli_value_error("export", "bad --data-format value \"%s\": use csv or json",
                                   value);
        o->has_data_format = 1;
        o->data_json = strcmp(value, "json") == 0;
        return 0;
    case OPT_DURATION_METRICS:
        return cli_list_add(&o->metrics, value) ? 0 : cli_out_of_memory();
    case OPT_X:
        o->x = value;
        return 0;
    case OPT_RAW_CLOCK:
        o->ex.select.raw_clock = 1;
        return 0;
    case OPT_THREADS:
        return add_threads(o, value);
    case OPT_WINDOW:
        return parse_window(o, value);
    case OPT_MIN_DURATION:
        if (parse_with_unit(value, TIME_UNITS, &v))
            return cli_value_error("export",
                                   "bad --min-duration value \"%s\": use seconds or a unit, "
                                   "e.g. 0.002, 2ms, 50us, 800ns",
                                   value);
        o->ex.select.min_duration = v;
        return 0;
    case OPT_MAX_EVENTS: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(value, &end, 10);
        if (end == value || *end || errno || n == 0 || value[0] == '-')
            return cli_value_error(
                "export", "bad --max-events value \"%s\": use a positive number of calls", value);
        o->ex.select.max_events = n;
        return 0;
    }
    case OPT_MAX_DEPTH:
        o->has_max_depth = 1;
        return cli_max_depth("export", value, &o->ex.max_depth);
    default:
        return cli_select_option(&o->select, id, value);
    }
}

/* "1.2 GB", "340 MB", "12 kB", "512 B" (decimal units, as the limits are given). */
static void format_size(uint64_t bytes, char *out, size_t size) {
    if (bytes >= 1000000000ULL)
        snprintf(out, size, "%.1f GB", (double)bytes / 1e9);
    else if (bytes >= 1000000ULL)
        snprintf(out, size, "%.0f MB", (double)bytes / 1e6);
    else if (bytes >= 1000ULL)
        snprintf(out, size, "%.0f kB", (double)bytes / 1e3);
    else
        snprintf(out, size, "%" PRIu64 " B", bytes);
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int check_size(const char *path, sp_export_format format, const export_options *o,
                      const sp_export_estimate *est) {
    int json = format == SP_EXPORT_CHROME_TRACE || format == SP_EXPORT_SPEEDSCOPE;
    uint64_t limit = o->has_max_size ? o->max_size : json ? DEFAULT_JSON_LIMIT : 0;
    char size[32], lim[32];
    format_size(est->bytes, size, sizeof size);
    if (limit && est->bytes > limit) {
        format_size(limit, lim, sizeof lim);
        cli_error("export: the %s output of %s would be about %s (%" PRIu64
                  " calls), over --max-size %s; select fewer calls with --ranks, --threads, "
                  "--window START:END, --min-duration D, --max-events N or --include/--exclude, "
                  "raise --max-size%s",
                  sp_export_format_name(format), path, size, est->selected_calls, lim,
                  format == SP_EXPORT_PERFETTO ? "" : ", or export perfetto (the compact format)");
        return CLI_EXIT_USAGE;
    }
    if (est->bytes > ANNOUNCE_BYTES)
        fprintf(stderr, "scope-profiler: export: writing about %s (%" PRIu64 " calls) to %s\n",
                size, est->selected_calls,
                strcmp(o->output, "-") == 0 ? "stdout" : cli_shown(o->output));
    return 0;
}

/* A regular file is replaced atomically; stdout ("-"), a device (/dev/null) or a
 * pipe is written in place. */
static sp_status write_output(const sp_results *r, sp_export_format format, export_options *o,
                              sp_error *err) {
    if (format == SP_EXPORT_OTF2) return sp_export_file(r, format, &o->ex, o->output, err);
    if (strcmp(o->output, "-") == 0) return sp_export_write(r, format, &o->ex, stdout, err);
    struct stat st;
    /* devices and pipes are written through; a directory or a socket is refused
     * with the other writers' message (src/format/atomic_file.c) */
    if (stat(o->output, &st) == 0 &&
        (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
        FILE *f = fopen(o->output, "wb");
        if (!f) {
            err->status = SP_ERR_IO;
            snprintf(err->message, sizeof err->message, "cannot write %s: %s", o->output,
                     strerror(errno));
            return SP_ERR_IO;
        }
        sp_status rc = sp_export_write(r, format, &o->ex, f, err);
        if (fclose(f) != 0 && rc == SP_OK) rc = SP_ERR_IO;
        return rc;
    }
    return sp_export_file(r, format, &o->ex, o->output, err);
}

static int unknown_format(const char *name) {
    static const char *const formats[] = {"chrome-trace", "perfetto", "speedscope", "folded",
                                          "hatchet",      "pstats",   "otf2",       "data"};
    return cli_choice_error("export", "FORMAT", name, formats, sizeof formats / sizeof *formats);
}

/* The format's own option and output rules, before any file is read. */
static int check_format_options(sp_export_format format, const export_options *o) {
    if (o->ex.per_rank && format != SP_EXPORT_FOLDED)
        return cli_usage_error("export", "--per-rank applies to the folded format only");
    if (o->has_max_depth && format != SP_EXPORT_FOLDED)
        return cli_usage_error("export", "--max-depth applies to the folded format only");
    if (o->ex.no_args && format != SP_EXPORT_CHROME_TRACE)
        return cli_usage_error("export", "--no-args applies to the chrome-trace format only");
    if (o->ex.aggregate_ranks && format != SP_EXPORT_HATCHET)
        return cli_usage_error("export", "--aggregate-ranks applies to the hatchet format only");
    int binary = format == SP_EXPORT_PSTATS || format == SP_EXPORT_OTF2;
    if (binary && o->output && ends_with(o->output, ".gz"))
        return cli_usage_error("export",
                               "the %s output is read uncompressed by its tools: drop the .gz "
                               "from -o %s",
                               sp_export_format_name(format), o->output);
    if (format == SP_EXPORT_OTF2 && o->output && strcmp(o->output, "-") == 0)
        return cli_usage_error("export", "otf2 writes an archive directory: give -o DIR, not -");
    return 0;
}

static int run(const char *format_name, const char *path, export_options *o) {
    sp_export_format format;
    if (!sp_export_format_from_name(format_name, &format)) return unknown_format(format_name);
    int bad = check_format_options(format, o);
    if (bad) return bad;
    o->ex.select.filter = cli_select_filter(&o->select);
    o->ex.select.threads = o->threads;
    o->ex.select.num_threads = o->num_threads;
    o->ex.gzip = o->output && ends_with(o->output, ".gz");
    sp_error err = {0};
    cli_reading(path);
    sp_results *r = cli_select_read_streamed(&o->select, path, &err);
    if (!r) {
        cli_error_sp(&err);
        return CLI_EXIT_USAGE;
    }
    sp_export_estimate est;
    int rc = cli_select_check(&o->select, r, path);
    if (!rc && sp_export_estimate_size(r, format, &o->ex, &est, &err) != SP_OK) {
        cli_error_sp(&err);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && est.selected_calls == 0 && sp_results_has_events(r)) {
        /* an empty selection writes no empty file */
        if (o->ex.select.has_window)
            cli_error("%s: --window %g:%g holds no call: the run spans 0 to %g s", path,
                      o->ex.select.window_start, o->ex.select.window_end,
                      (double)(sp_results_maximum_end_time_ns(r) - sp_results_time_origin_ns(r)) /
                          1e9);
        else
            cli_error("%s: the selection holds no call; widen --threads, --min-duration or "
                      "--include",
                      path);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && o->dry_run) {
        char size[32];
        format_size(est.bytes, size, sizeof size);
        printf("%s: about %s (%" PRIu64 " bytes), %" PRIu64 " calls\n",
               sp_export_format_name(format), size, est.bytes, est.selected_calls);
        sp_results_free(r);
        return 0;
    }
    if (!rc) rc = check_size(path, format, o, &est);
    if (!rc) {
        sp_status st = write_output(r, format, o, &err);
        if (st != SP_OK) {
            cli_error_sp(&err);
            rc = CLI_EXIT_USAGE;
        } else if (strcmp(o->output, "-") != 0) { /* on stdout the data is the output */
            char what[64];
            snprintf(what, sizeof what, "%s export", sp_export_format_name(format));
            cli_print_written(what, o->output);
        }
    }
    sp_results_free(r);
    return rc;
}

/* The name a file's stem gets in the output directory: DIR/STEM.json. */
static char *output_in(const char *dir, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t stem = strlen(base);
    if (stem > 3 && strcmp(base + stem - 3, ".h5") == 0) stem -= 3;
    char *out = malloc(strlen(dir) + stem + 8);
    if (out) sprintf(out, "%s/%.*s.json", dir, (int)stem, base);
    return out;
}

/* hatchet FILE... -o DIR: one json-split file per profile (Thicket reads the
 * list), the directory made when missing; two files with one stem are refused. */
static int run_each(const char *format_name, const cli_list *files, export_options *o) {
    const char *dir = o->output;
    if (!o->dry_run) {
        struct stat st;
        if (strcmp(dir, "-") == 0 || ends_with(dir, ".json") || ends_with(dir, ".gz"))
            return cli_usage_error("export",
                                   "hatchet with %zu FILEs writes one STEM.json per file: give "
                                   "-o DIR (a directory)",
                                   files->count);
        if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
            return cli_value_error("export", "cannot make the directory %s: %s", dir,
                                   strerror(errno));
        if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
            return cli_usage_error("export",
                                   "-o %s is not a directory: hatchet with several "
                                   "FILEs writes one STEM.json per file into a directory",
                                   dir);
    }
    char **outs = calloc(files->count, sizeof *outs);
    if (!outs) return cli_out_of_memory();
    int rc = 0;
    for (size_t i = 0; i < files->count && !rc; i++) {
        outs[i] = output_in(dir, files->items[i]);
        if (!outs[i]) rc = cli_out_of_memory();
        for (size_t k = 0; k < i && !rc; k++)
            if (strcmp(outs[k], outs[i]) == 0)
                rc = cli_usage_error("export",
                                     "%s and %s would both be written to %s: rename one, or "
                                     "export them one at a time",
                                     files->items[k], files->items[i], outs[i]);
    }
    for (size_t i = 0; i < files->count && !rc; i++) {
        o->output = outs[i];
        rc = run(format_name, files->items[i], o);
    }
    o->output = dir;
    for (size_t i = 0; i < files->count; i++)
        free(outs[i]);
    free(outs);
    return rc;
}

int cli_export(int argc, char **argv) {
    /* Extra-P takes many runs and parameters: its own command line (export_extrap.c) */
    if (argc > 1 && !strcmp(argv[1], "extrap")) return cli_export_extrap(argc - 1, argv + 1);
    static const cli_command_spec spec = {"export", cli_help_export, OPTIONS,
                                          sizeof OPTIONS / sizeof OPTIONS[0], on_option};
    export_options o;
    memset(&o, 0, sizeof o);
    cli_list args = CLI_LIST_INIT, files = CLI_LIST_INIT;
    int rc = cli_parse(&spec, argc, argv, &o, &args);
    if (!rc && args.count == 0)
        rc = cli_usage_error("export", "needs a FORMAT (chrome-trace, perfetto, speedscope, "
                                       "folded, hatchet, pstats, otf2 or data) and a FILE");
    sp_export_format format = SP_EXPORT_CHROME_TRACE;
    int data = !rc && strcmp(args.items[0], "data") == 0;
    if (!rc && !data && !sp_export_format_from_name(args.items[0], &format))
        rc = unknown_format(args.items[0]); /* before the other checks: the typo is the news */
    if (!rc && !data && (o.has_data_format || o.metrics.count || o.x))
        rc = cli_usage_error("export", "--data-format, --duration-metrics and --x apply to "
                                       "export data only");
    if (!rc) {
        cli_list rest = CLI_LIST_INIT;
        for (size_t i = 1; i < args.count && !rc; i++)
            if (!cli_list_add(&rest, args.items[i])) rc = cli_out_of_memory();
        if (!rc) rc = cli_expand_files("export", &rest, &files);
        cli_list_free(&rest);
    }
    int several = !rc && (data || format == SP_EXPORT_HATCHET) && files.count > 1;
    if (!rc && files.count != 1 && !several)
        rc = cli_usage_error("export", "takes exactly one FILE after FORMAT (%zu given)",
                             files.count);
    if (!rc && !o.output && !o.dry_run)
        rc = cli_usage_error("export", "needs -o OUT (a file, or - for standard output)");
    if (!rc && data)
        rc = cli_export_data(&files, o.output ? o.output : "-", o.data_json, &o.metrics, o.x,
                             &o.select);
    else if (!rc && several)
        rc = run_each(args.items[0], &files, &o);
    else if (!rc)
        rc = run(args.items[0], files.items[0], &o);
    cli_list_free(&args);
    cli_list_free(&files);
    cli_select_free(&o.select);
    cli_list_free(&o.metrics);
    free(o.threads);
    return rc == CLI_PARSED_HELP ? CLI_EXIT_OK : rc;
}
