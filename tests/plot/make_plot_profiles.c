/*
 * Writes the profiles the chart and report tests draw, with fixed timestamps:
 *
 *   hostile.h5    2 ranks; names and metadata that are markup if mishandled:
 *                 <script>alert(1)</script> (outer) > " onmouseover="x (inner),
 *                 solve, a 150-character name, "ünï/cöde & <b>"; label and host
 *                 with tags; rank 1 is 3x slower in solve
 *   threads.h5    1 rank, two threads ("work" on both, "io" on thread 2)
 *   big.h5        1 rank, N calls (default 400000): "step" > "tiny", every call
 *                 far shorter than a pixel
 *   scale_np{1,2,4}.h5  the same work on 1, 2 and 4 ranks (mpi_size): "solve"
 *                 scales perfectly, "serial" does not
 *   deep.h5       1 rank: "rec" recursing 100000 calls deep, "leaf" at the bottom
 *   compare_{a,b}.h5  1 rank: main > (a 300-character Fortran-style name) >
 *                 kernel, and main > io; in b kernel takes 2x, io half, and
 *                 "gone" (a only) and "extra" (b only) differ
 *
 * Usage: make_plot_profiles DIR [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/writer.h"
#include "model/model.h"

#define T0 1000000000000LL
#define MS 1000000LL

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "make_plot_profiles: %s failed\n", what);
        exit(1);
    }
}

typedef struct builder {
    sp_model m;
    size_t cap_events, cap_rows;
} builder;

static void init(builder *b, const char *const *names, size_t n, size_t events, int threads) {
    memset(b, 0, sizeof *b);
    b->m.schema = 3;
    b->m.layout = SP_LAYOUT_COLUMNAR;
    b->m.num_regions = n;
    b->m.region_names = calloc(n, sizeof *b->m.region_names);
    b->m.starts = calloc(events, sizeof *b->m.starts);
    b->m.durations = calloc(events, sizeof *b->m.durations);
    b->m.rows = calloc(64, sizeof *b->m.rows);
    if (threads) b->m.thread_ids = calloc(events, sizeof *b->m.thread_ids);
    check(b->m.region_names && b->m.starts && b->m.durations && b->m.rows &&
              (!threads || b->m.thread_ids),
          "calloc");
    for (size_t i = 0; i < n; i++)
        check((b->m.region_names[i] = sp_strdup(names[i])) != NULL, "strdup");
    b->cap_events = events;
}

/* Opens a row; calls are then appended with call(). Rows of one rank consecutive. */
static void row(builder *b, uint32_t region, uint32_t rank) {
    sp_model_row *r = &b->m.rows[b->m.num_rows++];
    memset(r, 0, sizeof *r);
    r->region = region;
    r->rank = rank;
    r->offset = b->m.num_events;
    r->source_line = -1;
    r->exclusive_total = -1;
    r->source_file = sp_strdup("");
    r->source_text = sp_strdup("");
    r->tags = sp_strdup("[]");
    r->event_metadata = sp_strdup("[]");
    check(r->source_file && r->source_text && r->tags && r->event_metadata, "strdup");
}

static void call(builder *b, int64_t start, int64_t dur, int64_t thread) {
    check(b->m.num_events < b->cap_events, "event capacity");
    b->m.starts[b->m.num_events] = start;
    b->m.durations[b->m.num_events] = dur;
    if (b->m.thread_ids) b->m.thread_ids[b->m.num_events] = thread;
    b->m.num_events++;
    b->m.rows[b->m.num_rows - 1].count++;
}

static void finish(builder *b, const char *dir, const char *name) {
    for (size_t i = 0; i < b->m.num_rows; i++) {
        sp_model_row *r = &b->m.rows[i];
        sp_row_stats_compute(&r->stats, b->m.starts + r->offset, b->m.durations + r->offset,
                             r->count);
        r->has_stats = 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(&b->m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_plot_profiles: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(&b->m);
}

static void run_meta(builder *b, const char *label, int64_t end) {
    check(sp_model_meta_string(&b->m, "label", label) == SP_OK, "meta");
    check(sp_model_meta_int(&b->m, "start_time_ns", T0) == SP_OK, "meta");
    check(sp_model_meta_int(&b->m, "finalize_time_ns", end) == SP_OK, "meta");
}

static const char LONG_NAME[] =
    "a_region_with_a_very_long_name_that_no_chart_has_room_for_"
    "assemble_the_global_stiffness_matrix_and_apply_the_boundary_conditions_"
    "then_solve_it_0123456789";

static void make_hostile(const char *dir) {
    static const char *const names[] = {"<script>alert(1)</script>", "\" onmouseover=\"x", "solve",
                                        LONG_NAME,
                                        "\xC3\xBCn\xC3\xAF/c\xC3\xB6"
                                        "de & <b>"};
    builder b;
    init(&b, names, 5, 64, 0);
    for (uint32_t rank = 0; rank < 2; rank++) {
        int64_t slow = rank ? 3 : 1;
        row(&b, 0, rank); /* outer: 2 calls of 10 ms (x slow) */
        call(&b, T0 + 1 * MS, 10 * MS * slow, -1);
        call(&b, T0 + 40 * MS, 10 * MS * slow, -1);
        row(&b, 1, rank); /* inside the outer calls */
        call(&b, T0 + 2 * MS, 2 * MS, -1);
        call(&b, T0 + 41 * MS, 2 * MS, -1);
        row(&b, 2, rank);
        call(&b, T0 + 5 * MS, 3 * MS * slow, -1);
        call(&b, T0 + 44 * MS, 3 * MS * slow, -1);
        row(&b, 3, rank);
        call(&b, T0 + 75 * MS, 5 * MS, -1);
        row(&b, 4, rank);
        call(&b, T0 + 85 * MS, 1 * MS, -1);
    }
    run_meta(&b, "<img src=x onerror=alert(2)>", T0 + 100 * MS);
    check(sp_model_meta_string(&b.m, "hostname", "\"host\"<i>") == SP_OK, "meta");
    check(sp_model_meta_int(&b.m, "mpi_size", 2) == SP_OK, "meta");
    finish(&b, dir, "hostile.h5");
}

static void make_threads(const char *dir) {
    static const char *const names[] = {"work", "io"};
    builder b;
    init(&b, names, 2, 16, 1);
    row(&b, 0, 0);
    call(&b, T0 + 1 * MS, 6 * MS, 1);
    call(&b, T0 + 2 * MS, 3 * MS, 2);
    row(&b, 1, 0);
    call(&b, T0 + 6 * MS, 2 * MS, 2);
    run_meta(&b, "threads", T0 + 10 * MS);
    finish(&b, dir, "threads.h5");
}

static void make_big(const char *dir, long n) {
    static const char *const names[] = {"step", "tiny"};
    builder b;
    init(&b, names, 2, (size_t)n + 2, 0);
    long steps = n / 2;
    row(&b, 0, 0);
    for (long i = 0; i < steps; i++)
        call(&b, T0 + 1000 * i, 800, -1);
    row(&b, 1, 0);
    for (long i = 0; i < steps; i++)
        call(&b, T0 + 1000 * i + 100, 300, -1);
    run_meta(&b, "big", T0 + 1000 * steps);
    finish(&b, dir, "big.h5");
}

static void make_scale(const char *dir, uint32_t ranks) {
    static const char *const names[] = {"solve", "serial"};
    builder b;
    init(&b, names, 2, 64, 0);
    int64_t solve = 80 * MS / ranks, serial = 10 * MS;
    for (uint32_t rank = 0; rank < ranks; rank++) {
        row(&b, 0, rank);
        call(&b, T0 + 1 * MS, solve, -1);
        row(&b, 1, rank);
        call(&b, T0 + 2 * MS + solve, serial, -1);
    }
    char label[32], file[64];
    snprintf(label, sizeof label, "np%u", ranks);
    run_meta(&b, label, T0 + 3 * MS + solve + serial);
    check(sp_model_meta_int(&b.m, "mpi_size", ranks) == SP_OK, "meta");
    snprintf(file, sizeof file, "scale_np%u.h5", ranks);
    finish(&b, dir, file);
}

/* A recursion `depth` calls deep: each call 2 ns inside its caller. */
static void make_deep(const char *dir, long depth) {
    static const char *const names[] = {"rec", "leaf"};
    builder b;
    init(&b, names, 2, (size_t)depth + 1, 0);
    row(&b, 0, 0);
    for (long i = 0; i < depth; i++)
        call(&b, T0 + MS + i, 50 * MS - 2 * i, -1);
    row(&b, 1, 0);
    call(&b, T0 + MS + depth, 1000, -1);
    run_meta(&b, "deep", T0 + 60 * MS);
    finish(&b, dir, "deep.h5");
}

/* A Fortran module procedure's mangled name, 300 characters. */
static void fortran_name(char out[301]) {
    static const char head[] = "__fluid_dynamics_solver_module_MOD_";
    static const char word[] = "assemble_the_global_stiffness_matrix_";
    size_t n = strlen(head);
    memcpy(out, head, n);
    for (size_t i = 0; n < 300 - 12; i++)
        out[n++] = word[i % (sizeof word - 1)];
    memcpy(out + n, "_with_bc_end", 12);
    out[300] = '\0';
}

static void make_compare(const char *dir, int b_run) {
    char name[301];
    fortran_name(name);
    const char *names[] = {"main", name, "kernel", "io", b_run ? "extra" : "gone"};
    builder b;
    init(&b, names, 5, 16, 0);
    int64_t kernel = (b_run ? 40 : 20) * MS, io = (b_run ? 5 : 10) * MS;
    row(&b, 0, 0);
    call(&b, T0 + 1 * MS, 90 * MS, -1);
    row(&b, 1, 0);
    call(&b, T0 + 2 * MS, kernel + 4 * MS, -1);
    row(&b, 2, 0);
    call(&b, T0 + 3 * MS, kernel, -1);
    row(&b, 3, 0);
    call(&b, T0 + 60 * MS, io, -1);
    row(&b, 4, 0);
    call(&b, T0 + 75 * MS, 8 * MS, -1);
    run_meta(&b, b_run ? "b" : "a", T0 + 100 * MS);
    finish(&b, dir, b_run ? "compare_b.h5" : "compare_a.h5");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: make_plot_profiles DIR [N]\n");
        return 2;
    }
    make_hostile(argv[1]);
    make_threads(argv[1]);
    make_big(argv[1], argc > 2 ? atol(argv[2]) : 400000);
    make_scale(argv[1], 1);
    make_scale(argv[1], 2);
    make_scale(argv[1], 4);
    make_deep(argv[1], 100000);
    make_compare(argv[1], 0);
    make_compare(argv[1], 1);
    return 0;
}
