/*
 * tutorial_postprocessing: the post-processing tutorial of the Python
 * scope-profiler ("2. Post-processing profiling data") in C.
 *
 * It records the tutorial's program (a setup phase, then five time steps
 * that assemble and solve, with the same sleeps), reads the file back and
 * prints every inspection the tutorial shows, in the tutorial's shapes
 * (Python's printing: repr() of floats, lists and dicts).
 *
 * Run it in a scratch directory: it writes profiling_data.h5, full.h5,
 * metadata.json and region_statistics.json there.
 */
#include <errno.h>
#include <math.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- the recorded program ---------------------------------------------------- */

static void sleep_seconds(double seconds) {
    struct timespec t = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* Interned at start-up, like the Python decorator registers it at definition
 * time: so "assemble" is the file's first region, as in the tutorial. */
static sp_region_t assemble_region;

static void assemble(int scale) {
    sp_begin(assemble_region);
    sleep_seconds(0.004 * scale);
    sp_end(assemble_region);
}

static int record_tutorial_run(void) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = "profiling_data.h5";
    opt.label = "tutorial 2";
    if (sp_setup(&opt) != SP_OK) return 0;
    assemble_region = sp_region("assemble");
    SP_REGION("setup") {
        sleep_seconds(0.02);
    }
    for (int step = 0; step < 5; step++) {
        SP_REGION("timestep") {
            assemble(1 + step % 3);
            SP_REGION("solve") {
                sleep_seconds(0.003);
            }
        }
    }
    sp_finalize_options fo = {1, NULL, NULL}; /* finalize(verbose=False) */
    return sp_finalize(&fo) == SP_OK;
}

/* --- Python-like printing ---------------------------------------------------- */

/* repr(float): the shortest text that reads back as v, with ".0" when integral. */
static void put_float(double v) {
    char buf[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, stdout);
    if (!strpbrk(buf, ".en")) fputs(".0", stdout); /* not for 1e-05, nan, inf */
}

static void put_name_list(const char *const *names, size_t n) {
    putchar('[');
    for (size_t i = 0; i < n; i++)
        printf("%s'%s'", i ? ", " : "", names[i]);
    putchar(']');
}

/* A numpy array of seconds: fixed decimals (numpy pads; this keeps it simple). */
static void put_array(const double *v, size_t n, int decimals) {
    putchar('[');
    for (size_t i = 0; i < n; i++)
        printf("%s%.*f", i ? " " : "", decimals, v[i]);
    putchar(']');
}

static void put_summary(const sp_summary *s) {
    static const char *const keys[] = {
        "total_duration",   "inclusive_duration", "exclusive_duration",
        "average_duration", "min_duration",       "max_duration",
        "first_duration",   "last_duration",      "std_duration"};
    const double values[] = {s->total_duration,   s->inclusive_duration, s->exclusive_duration,
                             s->average_duration, s->min_duration,       s->max_duration,
                             s->first_duration,   s->last_duration,      s->std_duration};
    printf("{'num_calls': %llu", (unsigned long long)s->num_calls);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        printf(", '%s': ", keys[i]);
        put_float(values[i]);
    }
    putchar('}');
}

static void put_rank_dict(const uint32_t *ranks, const double *values, size_t n) {
    putchar('{');
    for (size_t i = 0; i < n; i++) {
        printf("%s%u: ", i ? ", " : "", (unsigned)ranks[i]);
        put_float(values[i]);
    }
    putchar('}');
}

/* --- the inspections ----------------------------------------------------------- */

static void show_mapping(const sp_results *r) {
    char line[256];
    sp_results_describe(r, line, sizeof line);
    printf("%s\n", line);
    size_t n = sp_results_num_regions(r);
    const char *names[64] = {0};
    for (size_t i = 0; i < n && i < 64; i++)
        names[i] = sp_results_region_name(r, i);
    fputs("regions: ", stdout);
    put_name_list(names, n < 64 ? n : 64);
    printf("\ncount: %zu\n", n);
    printf("'solve' recorded? %s\n", sp_results_find(r, "solve") >= 0 ? "True" : "False");
    printf("ranks in file: %zu\n", sp_results_num_ranks(r));
    for (size_t i = 0; i < n; i++) {
        const sp_mpi_region *region = sp_results_region_at(r, i);
        printf("  %-10s %3llu calls\n", sp_mpi_region_name(region),
               (unsigned long long)sp_mpi_region_num_calls(region));
    }
    sp_error err = {0};
    if (!sp_results_get(r, "sovle", &err)) /* typo */
        printf("\"%s\"\n", err.message);
}

static void show_timestep(const sp_results *r, const sp_mpi_region *timestep) {
    printf("aggregated over ranks\n  ranks       : [");
    for (size_t i = 0; i < sp_mpi_region_num_ranks(timestep); i++)
        printf("%s%u", i ? ", " : "", (unsigned)sp_mpi_region_rank_id(timestep, i));
    printf("]\n  num_calls   : %llu\n  total   [s] : ",
           (unsigned long long)sp_mpi_region_num_calls(timestep));
    put_float(sp_mpi_region_total_duration(timestep));
    fputs("\n  average [s] : ", stdout);
    put_float(sp_mpi_region_average_duration(timestep));
    fputs("\n  min/max [s] : ", stdout);
    put_float(sp_mpi_region_min_duration(timestep));
    putchar(' ');
    put_float(sp_mpi_region_max_duration(timestep));
    fputs("\n  std     [s] : ", stdout);
    put_float(sp_mpi_region_std_duration(timestep));

    sp_error err = {0};
    const sp_rank_region *rank0 = sp_mpi_region_rank(timestep, 0, &err);
    size_t n = (size_t)sp_rank_region_num_calls(rank0);
    double *values = malloc((n ? n : 1) * sizeof *values);
    if (!values) return;
    printf("\n\nrank 0 only\n  durations [s]: ");
    sp_rank_region_durations(rank0, values, n);
    put_array(values, n, 8);
    /* Timestamps are on a monotonic clock with an arbitrary origin; measure
     * them from the start of the run, as events() does. */
    fputs("\n  start times [s]: ", stdout);
    sp_rank_region_start_times(rank0, values, n);
    for (size_t i = 0; i < n; i++)
        values[i] = round((values[i] - sp_results_time_origin(r)) * 1000.0) / 1000.0;
    put_array(values, n, 3);
    free(values);
    sp_summary s;
    sp_rank_region_get_summary(rank0, &s, &err);
    fputs("\n  summary: ", stdout);
    put_summary(&s);
    putchar('\n');
}

static void show_per_rank(const sp_mpi_region *timestep) {
    size_t n = sp_mpi_region_num_ranks(timestep); /* any number of ranks */
    uint32_t *ranks = malloc((n ? n : 1) * sizeof *ranks);
    uint64_t *calls = malloc((n ? n : 1) * sizeof *calls);
    double *values = malloc((n ? n : 1) * sizeof *values);
    if (!ranks || !calls || !values) {
        free(ranks), free(calls), free(values);
        return;
    }
    for (size_t i = 0; i < n; i++)
        ranks[i] = sp_mpi_region_rank_id(timestep, i);
    sp_mpi_region_num_calls_per_rank(timestep, calls, n);
    printf("calls per rank : {");
    for (size_t i = 0; i < n; i++)
        printf("%s%u: %llu", i ? ", " : "", (unsigned)ranks[i], (unsigned long long)calls[i]);
    printf("}\ntotal per rank : ");
    sp_mpi_region_total_durations(timestep, values, n);
    put_rank_dict(ranks, values, n);
    printf("\navg per rank   : ");
    sp_mpi_region_average_durations(timestep, values, n);
    put_rank_dict(ranks, values, n);
    printf("\nmax per rank   : ");
    sp_mpi_region_max_durations(timestep, values, n);
    put_rank_dict(ranks, values, n);
    putchar('\n');
    free(ranks);
    free(calls);
    free(values);
}

static void show_summaries(const sp_results *r) {
    sp_print_options po = {0};
    po.suppress_notes = 1;
    sp_error err = {0};
    sp_print_summary(r, stdout, &po, &err);
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    for (size_t i = 0; rows && i < rows->count; i++) {
        const sp_summary_row *row = &rows->rows[i];
        printf("{'name': '%s', 'num_calls': %llu, 'total_duration': ", row->name,
               (unsigned long long)row->num_calls);
        put_float(row->total_duration);
        fputs(", 'exclusive_duration': ", stdout);
        put_float(row->exclusive_duration);
        fputs(", 'p95': ", stdout);
        put_float(row->p95_duration);
        fputs(", 'imbalance': ", stdout);
        put_float(row->rank_imbalance_pct);
        fputs("}\n", stdout);
    }
    sp_summary_rows_free(rows);
}

/* get_regions(include=...) / get_regions(exclude=...) as a list of names. */
static void show_regions(const sp_results *r, const sp_filter *f) {
    sp_error err = {0};
    size_t n = 0;
    const sp_mpi_region **list = sp_results_get_regions(r, f, &n, &err);
    const char *names[64] = {0};
    for (size_t i = 0; list && i < n && i < 64; i++)
        names[i] = sp_mpi_region_name(list[i]);
    put_name_list(names, list ? (n < 64 ? n : 64) : 0);
    putchar('\n');
    sp_region_list_free(list);
}

static void show_filters(const sp_results *r) {
    static const char *const s[] = {"s"};
    static const char *const setup_assemble[] = {"setup", "assemble"};
    static const char *const solve_timestep[] = {"solve", "timestep"};
    sp_filter f = {.include = s, .num_include = 1};
    show_regions(r, &f);
    sp_filter g = {.exclude = setup_assemble, .num_exclude = 2};
    show_regions(r, &g);
    sp_filter h = {.include = solve_timestep, .num_include = 2};
    sp_error err = {0};
    sp_summary_rows *rows = sp_results_summary(r, &h, 0, &err); /* summary(include=...) */
    const char *names[64] = {0};
    for (size_t i = 0; rows && i < rows->count && i < 64; i++)
        names[i] = rows->rows[i].name;
    put_name_list(names, rows ? (rows->count < 64 ? rows->count : 64) : 0);
    putchar('\n');
    sp_summary_rows_free(rows);
}

/* --- metadata ------------------------------------------------------------------ */

static int compare_keys(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The metadata keys, sorted (count in *n; at most 128). */
static size_t sorted_keys(const sp_results *r, const char **keys) {
    size_t n = 0;
    sp_metadata_item it;
    for (size_t i = 0; i < sp_results_num_metadata(r) && n < 128; i++)
        if (sp_results_metadata_at(r, i, &it)) keys[n++] = it.key;
    qsort(keys, n, sizeof *keys, compare_keys);
    return n;
}

static void put_value(const sp_metadata_item *it) {
    switch (it->type) {
    case SP_VALUE_INT:
        printf("%lld", (long long)it->int_value);
        break;
    case SP_VALUE_FLOAT:
        put_float(it->float_value);
        break;
    case SP_VALUE_STRING:
        fputs(it->string_value, stdout);
        break;
    case SP_VALUE_STRING_LIST:
        put_name_list(it->list, it->list_len);
        break;
    }
}

static void show_metadata(const sp_results *r) {
    const char *keys[128];
    size_t n = sorted_keys(r, keys);
    for (size_t i = 0; i < n; i++) {
        sp_metadata_item it;
        sp_results_metadata_find(r, keys[i], &it);
        printf("%24s: ", keys[i]);
        put_value(&it);
        putchar('\n');
    }
}

/* A second session with full metadata; prints the keys it adds. */
static void show_full_metadata(const sp_results *minimal) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = "full.h5";
    opt.metadata_detail = SP_METADATA_FULL;
    opt.label = "full metadata";
    if (sp_setup(&opt) != SP_OK) return;
    SP_REGION("work") {}
    sp_results *full = NULL;
    sp_finalize_options fo = {1, NULL, &full};
    if (sp_finalize(&fo) != SP_OK || !full) return;
    const char *keys[128], *extra[128];
    size_t n = sorted_keys(full, keys), k = 0;
    sp_metadata_item it;
    for (size_t i = 0; i < n; i++)
        if (!sp_results_metadata_find(minimal, keys[i], &it)) extra[k++] = keys[i];
    fputs("extra fields: ", stdout);
    put_name_list(extra, k);
    putchar('\n');
    sp_results_free(full);
}

static void show_exports(const sp_results *r) {
    sp_error err = {0};
    const sp_results *runs[] = {r};
    if (sp_write_metadata_json(runs, 1, "metadata.json", &err) == SP_OK) {
        const char *keys[128];
        size_t n = sorted_keys(r, keys);
        put_name_list(keys, n < 8 ? n : 8); /* sorted(payload["files"][0]["metadata"])[:8] */
        putchar('\n');
    }
    static const char *const solve[] = {"solve"};
    sp_stats_options so = {.filter = {.include = solve, .num_include = 1}};
    char *stats = sp_collect_region_statistics(runs, 1, &so, &err);
    if (stats) fputs(stats, stdout);
    free(stats);
    sp_stats_options all = {NULL, {0}};
    if (sp_write_region_statistics_json(runs, 1, &all, "region_statistics.json", &err) == SP_OK)
        printf("wrote region_statistics.json\n");
}

int main(void) {
    if (!record_tutorial_run()) {
        fprintf(stderr, "tutorial_postprocessing: recording failed\n");
        return 1;
    }
    sp_error err = {0};
    sp_results *r = sp_read("profiling_data.h5", &err);
    if (!r) {
        fprintf(stderr, "tutorial_postprocessing: %s\n", err.message);
        return 1;
    }
    show_mapping(r);
    const sp_mpi_region *timestep = sp_results_get(r, "timestep", &err);
    if (timestep) {
        show_timestep(r, timestep);
        show_per_rank(timestep);
    }
    show_summaries(r);
    show_filters(r);
    show_metadata(r);
    show_full_metadata(r);
    show_exports(r);
    sp_results_free(r);
    return 0;
}
