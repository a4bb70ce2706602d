/*
 * Writes the hand-built profiles of the export tests, with fixed timestamps
 * (every run starts at T0 = 1000 s on the clock):
 *
 *   nested.h5    one rank: main > {init, loop > 2 x step > {kernel, io}}, rec > rec
 *   mpi.h5       ranks 0 and 1; rank 1's stored clock is 5 ms behind rank 0's
 *   mpi1.h5      mpi.h5's regions on one rank: work 8 ms, sub 3 ms (speedup_data)
 *   threads.h5   one rank, threads 0 ("main") and 1 ("worker") with a thread table
 *   names.h5     hostile names: quotes, backslash, newline, </script>, ';', '%', non-ASCII
 *   big.h5       200,000 calls (size estimates and refusals)
 *   deep.h5      a chain of 4,000 distinct nested regions d0000 > d0001 > ...,
 *                call i from i us to (8000 - i) us (the folded depth cap)
 *
 * Usage: make_export_profiles DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/writer.h"
#include "model/model.h"

#define T0 1000000000000LL
#define MS 1000000LL
#define US 1000LL

typedef struct call {
    int region;
    uint32_t rank;
    int64_t start, end; /* ns from T0 */
    int64_t thread;     /* -1: the file has no thread ids */
} call;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "make_export_profiles: %s failed\n", what);
        exit(1);
    }
}

static void add_row(sp_model *m, const call *calls, size_t n, int region, uint32_t rank) {
    uint64_t first = m->num_events;
    for (size_t i = 0; i < n; i++) {
        if (calls[i].region != region || calls[i].rank != rank) continue;
        m->starts[m->num_events] = T0 + calls[i].start;
        m->durations[m->num_events] = calls[i].end - calls[i].start;
        if (m->thread_ids) m->thread_ids[m->num_events] = calls[i].thread;
        m->num_events++;
    }
    if (m->num_events == first) return;
    sp_model_row *row = &m->rows[m->num_rows++];
    memset(row, 0, sizeof *row);
    row->region = (uint32_t)region;
    row->rank = rank;
    row->offset = first;
    row->count = m->num_events - first;
    row->source_line = region == 0 ? 12 : -1;
    row->exclusive_total = -1;
    row->source_file = sp_strdup(region == 0 ? "src/app \"main\".c" : "");
    row->source_text = sp_strdup("");
    row->tags = sp_strdup("[]");
    row->event_metadata = sp_strdup("[]");
    check(row->source_file && row->source_text && row->tags && row->event_metadata, "strdup");
    sp_row_stats_compute(&row->stats, m->starts + first, m->durations + first, row->count);
    row->has_stats = 1;
}

/* Calls must be given in start order per (rank, region). */
static void build(sp_model *m, const char *const *names, size_t num_names, const call *calls,
                  size_t n, const char *label) {
    memset(m, 0, sizeof *m);
    m->schema = 3;
    m->layout = SP_LAYOUT_COLUMNAR;
    m->num_regions = num_names;
    m->region_names = calloc(num_names + 1, sizeof *m->region_names);
    m->starts = calloc(n + 1, sizeof *m->starts);
    m->durations = calloc(n + 1, sizeof *m->durations);
    m->rows = calloc(2 * num_names + 1, sizeof *m->rows);
    check(m->region_names && m->starts && m->durations && m->rows, "calloc");
    for (size_t i = 0; i < num_names; i++)
        check((m->region_names[i] = sp_strdup(names[i])) != NULL, "strdup");
    if (n && calls[0].thread >= 0) check((m->thread_ids = calloc(n + 1, 8)) != NULL, "calloc");
    for (uint32_t rank = 0; rank < 2; rank++)
        for (size_t g = 0; g < num_names; g++)
            add_row(m, calls, n, (int)g, rank);
    check(sp_model_meta_string(m, "label", label) == SP_OK, "meta");
    check(sp_model_meta_int(m, "start_time_ns", T0) == SP_OK, "meta");
    int64_t end = 200 * MS; /* the run lasts until its last call ends, at least 200 ms */
    for (size_t i = 0; i < n; i++)
        if (calls[i].end > end) end = calls[i].end;
    check(sp_model_meta_int(m, "finalize_time_ns", T0 + end) == SP_OK, "meta");
}

static void write_file(const char *dir, const char *name, sp_model *m) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_export_profiles: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(m);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void make_nested(const char *dir) {
    static const char *const names[] = {"main", "init", "loop", "step", "kernel", "io", "rec"};
    static const call calls[] = {{0, 0, 0, 100 * MS, -1},      {1, 0, 1 * MS, 11 * MS, -1},
                                 {2, 0, 20 * MS, 90 * MS, -1}, {3, 0, 20 * MS, 50 * MS, -1},
                                 {3, 0, 50 * MS, 90 * MS, -1}, {4, 0, 22 * MS, 42 * MS, -1},
                                 {4, 0, 52 * MS, 62 * MS, -1}, {5, 0, 70 * MS, 85 * MS, -1},
                                 {6, 0, 91 * MS, 99 * MS, -1}, {6, 0, 92 * MS, 97 * MS, -1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls), "nested");
    write_file(dir, "nested.h5", &m);
}

static void make_mpi(const char *dir) {
    static const char *const names[] = {"work", "sub"};
    /* Stored times; rank 1's clock reads 5 ms less than rank 0's at the same moment. */
    static const call calls[] = {{0, 0, 1 * MS, 4 * MS, -1},
                                 {1, 0, 2 * MS, 3 * MS, -1},
                                 {0, 1, 1 * MS, 6 * MS, -1},
                                 {1, 1, 2 * MS, 5 * MS, -1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls), "two ranks");
    sp_model_meta_int(&m, "mpi_size", 2);
    m.clock_offsets = calloc(2, sizeof *m.clock_offsets);
    check(m.clock_offsets != NULL, "calloc");
    m.num_clock_offsets = 2;
    m.clock_offsets[0] = (sp_clock_offset){0, 0, 0};
    m.clock_offsets[1] = (sp_clock_offset){1, 5 * MS, 1000};
    write_file(dir, "mpi.h5", &m);
}

static void make_mpi1(const char *dir) {
    static const char *const names[] = {"work", "sub"};
    static const call calls[] = {{0, 0, 1 * MS, 9 * MS, -1}, {1, 0, 2 * MS, 5 * MS, -1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls), "one rank");
    sp_model_meta_int(&m, "mpi_size", 1);
    write_file(dir, "mpi1.h5", &m);
}

static void make_threads(const char *dir) {
    static const char *const names[] = {"run", "task"};
    static const call calls[] = {{0, 0, 0, 10 * MS, 0},
                                 {0, 0, 2 * MS, 9 * MS, 1},
                                 {1, 0, 1 * MS, 3 * MS, 0},
                                 {1, 0, 3 * MS, 5 * MS, 1},
                                 {1, 0, 6 * MS, 8 * MS, 1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls), "threads");
    m.threads = calloc(2, sizeof *m.threads);
    check(m.threads != NULL, "calloc");
    m.num_threads = 2;
    m.threads[0] =
        (sp_thread_info){0, 0, 140001, 5001, 0, T0, T0 + 10 * MS, 9 * MS, sp_strdup("main"), 0};
    m.threads[1] = (sp_thread_info){
        0, 1, 140002, 5002, 0, T0 + 2 * MS, T0 + 9 * MS, 6 * MS, sp_strdup("worker \"1\""), 0};
    check(m.threads[0].name && m.threads[1].name, "strdup");
    write_file(dir, "threads.h5", &m);
}

static void make_names(const char *dir) {
    static const char *const names[] = {"say \"hi\"",        "back\\slash", "line\nbreak",
                                        "</script><b>x</b>", "a;b",         "100% sure",
                                        "ünï/cödé 名前 🚀",   "tab\there"};
    static const call calls[] = {{0, 0, 0, 50 * MS, -1},       {1, 0, 1 * MS, 20 * MS, -1},
                                 {2, 0, 2 * MS, 10 * MS, -1},  {3, 0, 3 * MS, 5 * MS, -1},
                                 {4, 0, 21 * MS, 30 * MS, -1}, {5, 0, 22 * MS, 25 * MS, -1},
                                 {6, 0, 31 * MS, 40 * MS, -1}, {7, 0, 41 * MS, 45 * MS, -1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls), "names \"<\\/script>\" ;");
    write_file(dir, "names.h5", &m);
}

static void make_big(const char *dir) {
    static const char *const names[] = {"outer", "inner"};
    const size_t pairs = 100000;
    call *calls = malloc(2 * pairs * sizeof *calls);
    check(calls != NULL, "malloc");
    for (size_t i = 0; i < pairs; i++) {
        int64_t s = (int64_t)i * 10 * US;
        calls[i] = (call){0, 0, s, s + 8 * US + (int64_t)(i % 7), -1};
        calls[pairs + i] = (call){1, 0, s + 1 * US, s + 5 * US + (int64_t)(i % 5), -1};
    }
    sp_model m;
    build(&m, names, COUNT(names), calls, 2 * pairs, "big");
    free(calls);
    write_file(dir, "big.h5", &m);
}

static void make_deep(const char *dir) {
    enum { DEPTH = 4000 };
    static char text[DEPTH][8];
    static const char *names[DEPTH];
    static call calls[DEPTH];
    for (int i = 0; i < DEPTH; i++) {
        snprintf(text[i], sizeof text[i], "d%04d", i);
        names[i] = text[i];
        calls[i] = (call){i, 0, i * US, (2 * DEPTH - i) * US, -1};
    }
    sp_model m;
    build(&m, names, DEPTH, calls, DEPTH, "deep");
    write_file(dir, "deep.h5", &m);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_export_profiles DIR\n");
        return 2;
    }
    make_nested(argv[1]);
    make_mpi(argv[1]);
    make_mpi1(argv[1]);
    make_threads(argv[1]);
    make_names(argv[1]);
    make_big(argv[1]);
    make_deep(argv[1]);
    return 0;
}
