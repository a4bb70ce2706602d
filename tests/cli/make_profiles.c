/*
 * Writes the small profiles the CLI tests use besides tests/fixtures/, with
 * fixed timestamps and metadata so that every output is stable:
 *
 *   meta.h5              rich metadata: every group, long values, modules, lists
 *   nometa.h5            one region, no metadata at all
 *   empty.h5             no region at all
 *   source.h5            a region with captured source text, one without
 *   source_off.h5        a region with a location and no text: capture was off
 *   source_unreadable.h5 the same with capture on (its file unreadable at finalize)
 *   names.h5             names with a comma, quotes, a line break, non-ASCII
 *   long.h5              long nested region names (fitting a width)
 *   threads.h5           two threads (the events' thread column)
 *   run.rank{0,1,2}.h5   the MPI library's per-rank fallback files of one run
 *   cb_rank{0,1}.h5      C-backend style: rows on rank 0, metadata mpi_rank
 *   dup_a.h5, dup_b.h5   both rank 1 (merge must refuse them)
 *   gap.rank{0,2}.h5     ranks 0 and 2 only (merge warns)
 *   aggregate_hist.h5    aggregate layout with our duration histograms (2 ranks)
 *   overlap.h5           calls that do not nest: on rank 1, "b" starts inside "a" and ends after
 *   mpi_waits.h5         4 ranks with MPI peer records: rank 0 waits longest in "step",
 *                        rank 1 computes longest (the slowest rank outside MPI waits)
 *   notes.txt            a text file (not a profile)
 *   out/                 where the cases write their outputs
 *
 * Usage: make_profiles DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include <hdf5.h>

#include "format/write_aggregate.h"
#include "format/writer.h"
#include "model/model.h"

#define NO_THREAD (-1)

typedef struct call {
    int region;
    uint32_t rank;
    int64_t start, end; /* ns */
    int64_t thread;     /* NO_THREAD: the file has no thread ids */
} call;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "make_profiles: %s failed\n", what);
        exit(1);
    }
}

static void add_row(sp_model *m, const call *calls, size_t n, int region, uint32_t rank) {
    uint64_t first = m->num_events;
    for (size_t i = 0; i < n; i++) {
        if (calls[i].region != region || calls[i].rank != rank) continue;
        m->starts[m->num_events] = calls[i].start;
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
    row->source_line = -1;
    row->exclusive_total = -1;
    row->source_file = sp_strdup("");
    row->source_text = sp_strdup("");
    row->tags = sp_strdup("[]");
    row->event_metadata = sp_strdup("[]");
    check(row->source_file && row->source_text && row->tags && row->event_metadata, "strdup");
    sp_row_stats_compute(&row->stats, m->starts + first, m->durations + first, row->count);
    row->has_stats = 1;
}

/* Rows by rank (0..7), then region; each row's calls in the given order. */
static void build(sp_model *m, const char *const *names, size_t num_names, const call *calls,
                  size_t n) {
    memset(m, 0, sizeof *m);
    m->schema = 3;
    m->layout = SP_LAYOUT_COLUMNAR;
    m->num_regions = num_names;
    m->region_names = calloc(num_names + 1, sizeof *m->region_names);
    m->starts = calloc(n + 1, sizeof *m->starts);
    m->durations = calloc(n + 1, sizeof *m->durations);
    m->rows = calloc(8 * num_names + 1, sizeof *m->rows);
    check(m->region_names && m->starts && m->durations && m->rows, "calloc");
    for (size_t i = 0; i < num_names; i++)
        check((m->region_names[i] = sp_strdup(names[i])) != NULL, "strdup");
    if (n && calls[0].thread != NO_THREAD) {
        m->thread_ids = calloc(n + 1, sizeof *m->thread_ids);
        check(m->thread_ids != NULL, "calloc");
    }
    for (uint32_t rank = 0; rank < 8; rank++)
        for (size_t g = 0; g < num_names; g++)
            add_row(m, calls, n, (int)g, rank);
}

static void write_file(const char *dir, const char *name, sp_model *m) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_profiles: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(m);
}

static void meta_run(sp_model *m, const char *label, int64_t start, int64_t end) {
    check(sp_model_meta_string(m, "label", label) == SP_OK, "meta");
    check(sp_model_meta_int(m, "start_time_ns", start) == SP_OK, "meta");
    check(sp_model_meta_int(m, "finalize_time_ns", end) == SP_OK, "meta");
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MS       1000000LL
#define T0       5000000000000LL /* every run starts at 5000 s on the clock */

static void make_meta(const char *dir) {
    static const char *const names[] = {"work"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 3 * MS, NO_THREAD}};
    static const char *const modules[] = {"gcc/12.2.0", "openmpi/4.1.4", "hdf5/1.10.8"};
    static const char *const hosts[] = {"node-a", "node-b"};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "rich metadata", T0, T0 + 10 * MS);
    sp_model_meta_string(&m, "timestamp", "2026-11-29T12:00:00.000000+00:00");
    sp_model_meta_string(&m, "user", "ada");
    sp_model_meta_string(&m, "hostname", "node-a");
    sp_model_meta_string(&m, "working_directory", "/home/ada/runs/42");
    sp_model_meta_string(&m, "scope_profiler_version", "0.1.0");
    sp_model_meta_string(&m, "platform", "Linux-6.1.0-x86_64-with-glibc2.36");
    sp_model_meta_string(&m, "uname",
                         "Linux node-a 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1 "
                         "(2024-09-30) x86_64 GNU/Linux and some more text");
    sp_model_meta_string(&m, "chip_information", "Intel(R) Xeon(R) CPU @ 2.10GHz");
    sp_model_meta_int(&m, "mpi_size", 1);
    sp_model_meta_int(&m, "num_nodes", 1);
    sp_model_meta_int(&m, "omp_num_threads", 4);
    sp_model_meta_int(&m, "total_cores", 4);
    sp_model_meta_string(&m, "SLURM_JOB_ID", "123456");
    sp_model_meta_string(&m, "SLURMD_NODENAME", "node-a");
    sp_model_meta_string(&m, "SLURM_NTASKS", "1");
    sp_model_meta_string(
        &m, "PATH",
        "/opt/spack/gcc-12.2.0/openmpi-4.1.4/bin:/opt/spack/gcc-12.2.0/hdf5-1.10.8/"
        "bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    sp_model_meta_string(&m, "LD_LIBRARY_PATH", "/opt/spack/lib");
    sp_model_meta_list(&m, "modules", modules, COUNT(modules));
    sp_model_meta_list(&m, "hosts", hosts, COUNT(hosts));
    sp_model_meta_float(&m, "clock_ghz", 2.1);
    sp_model_meta_float(&m, "tiny", 1.5e-05);
    sp_model_meta_string(&m, "compiler", "GNU 12.2.0");
    sp_model_meta_string(&m, "note", "naïve – ünïcode, 'quoted'");
    write_file(dir, "meta.h5", &m);
}

/* usermeta.h5: the user's keys (the "User" group) beside library fields, one key 52
 * characters long with a long value (the width-aware layout). */
static void make_user_meta(const char *dir) {
    static const char *const names[] = {"work"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 3 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "user keys", T0, T0 + 4 * MS);
    sp_model_meta_int(&m, "mpi_size", 1);
    sp_model_meta_string(&m, "compiler", "GNU 12.2.0");
    sp_model_meta_string(&m, "mpi_writer", "stream");
    sp_model_meta_int(&m, "problem_size", 128);
    sp_model_meta_float(&m, "dt", 0.25);
    sp_model_meta_string(&m, "mesh", "box-3d");
    sp_model_meta_string(&m, "refinement_levels_of_the_adaptive_outer_mesh_region",
                         "3 levels near the boundary, 5 levels in the wake behind the cylinder");
    write_file(dir, "usermeta.h5", &m);
}

static void make_small(const char *dir) {
    static const char *const names[] = {"work"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 2 * MS, NO_THREAD},
                                 {0, 0, T0 + 3 * MS, T0 + 5 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    write_file(dir, "nometa.h5", &m);

    build(&m, NULL, 0, NULL, 0);
    meta_run(&m, "nothing recorded", T0, T0 + 1 * MS);
    write_file(dir, "empty.h5", &m);
}

static void make_source(const char *dir) {
    static const char *const names[] = {"setup", "solve"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 2 * MS, NO_THREAD},
                                 {1, 0, T0 + 3 * MS, T0 + 7 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "source", T0, T0 + 8 * MS);
    sp_model_row *solve = &m.rows[1];
    free(solve->source_file);
    free(solve->source_text);
    solve->source_file = sp_strdup("src/solver.c");
    solve->source_line = 42;
    solve->source_text = sp_strdup("SP_REGION(\"solve\") {\n    iterate(&state);\n}\n");
    check(solve->source_file && solve->source_text, "strdup");
    write_file(dir, "source.h5", &m);

    /* setup has a location but no text: once without capture, once with
     * capture on and the file unreadable at finalize */
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "source locations", T0, T0 + 8 * MS);
    free(m.rows[0].source_file);
    m.rows[0].source_file = sp_strdup("lib/setup.c");
    m.rows[0].source_line = 7;
    check(m.rows[0].source_file != NULL, "strdup");
    write_file(dir, "source_off.h5", &m);
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "source locations", T0, T0 + 8 * MS);
    free(m.rows[0].source_file);
    m.rows[0].source_file = sp_strdup("lib/setup.c");
    check(m.rows[0].source_file != NULL, "strdup");
    check(sp_model_meta_int(&m, "capture_region_source", 1) == SP_OK, "metadata");
    write_file(dir, "source_unreadable.h5", &m);
}

static void make_names(const char *dir) {
    static const char *const names[] = {"a,b", "say \"hi\"", "line\nbreak", "ünï/cöde"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 2 * MS, NO_THREAD},
                                 {1, 0, T0 + 3 * MS, T0 + 4 * MS, NO_THREAD},
                                 {2, 0, T0 + 5 * MS, T0 + 6 * MS, NO_THREAD},
                                 {3, 0, T0 + 7 * MS, T0 + 9 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "names", T0, T0 + 10 * MS);
    write_file(dir, "names.h5", &m);
}

/* long.h5: long region names, nested (for fitting the table to a width) */
static void make_long_names(const char *dir) {
    static const char *const names[] = {
        "solver::time_integration::runge_kutta_stage",
        "solver::time_integration::runge_kutta_stage::assemble_right_hand_side",
        "io::checkpoint::write_restart_file_to_parallel_filesystem", "step"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 6 * MS, NO_THREAD},
                                 {1, 0, T0 + 2 * MS, T0 + 5 * MS, NO_THREAD},
                                 {2, 0, T0 + 7 * MS, T0 + 9 * MS, NO_THREAD},
                                 {3, 0, T0 + 9 * MS, T0 + 10 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "long names", T0, T0 + 10 * MS);
    write_file(dir, "long.h5", &m);
}

static void make_threads(const char *dir) {
    static const char *const names[] = {"work", "io"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 4 * MS, 1},
                                 {0, 0, T0 + 2 * MS, T0 + 5 * MS, 2},
                                 {1, 0, T0 + 2500000, T0 + 3 * MS, 1}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "threads", T0, T0 + 6 * MS);
    write_file(dir, "threads.h5", &m);
}

/* Rank 0 nests; on rank 1 "b" starts inside "a" and ends after it. */
static void make_overlap(const char *dir) {
    static const char *const names[] = {"a", "b"};
    static const call calls[] = {{0, 0, T0 + 1 * MS, T0 + 4 * MS, NO_THREAD},
                                 {1, 0, T0 + 2 * MS, T0 + 3 * MS, NO_THREAD},
                                 {0, 1, T0 + 1 * MS, T0 + 4 * MS, NO_THREAD},
                                 {1, 1, T0 + 2 * MS, T0 + 6 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    meta_run(&m, "overlap", T0, T0 + 7 * MS);
    write_file(dir, "overlap.h5", &m);
}

/* A 2-rank run recorded with the PMPI wrappers: two steps per rank, each
 * with an MPI_Allreduce of 10 ints (40 bytes) and a barrier after it. */
static void make_mpi_calls(const char *dir) {
    static const char *const names[] = {"step", "MPI_Allreduce", "MPI_Barrier"};
    call calls[12];
    size_t n = 0;
    for (uint32_t rank = 0; rank < 2; rank++)
        for (int64_t k = 0; k < 2; k++) {
            int64_t t = T0 + k * 10 * MS, work = (rank + 1) * 2 * MS;
            calls[n++] = (call){0, rank, t, t + work + 1 * MS, NO_THREAD};
            calls[n++] = (call){1, rank, t + work, t + work + 1 * MS, NO_THREAD};
            calls[n++] = (call){2, rank, t + work + 1 * MS, t + 6 * MS, NO_THREAD};
        }
    sp_model m;
    build(&m, names, COUNT(names), calls, n);
    for (size_t i = 0; i < m.num_rows; i++) {
        if (m.rows[i].region == 0) continue;
        m.rows[i].has_message_bytes = 1;
        m.rows[i].message_bytes = m.rows[i].region == 1 ? 2 * 40 : 0;
    }
    meta_run(&m, "mpi calls", T0, T0 + 20 * MS);
    sp_model_meta_int(&m, "mpi_size", 2);
    write_file(dir, "mpi_calls.h5", &m);
}

/* One int64 column of the peer records. */
static void peer_column(hid_t g, const char *name, const int64_t *v, size_t n) {
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t set = H5Dcreate2(g, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(set >= 0 &&
              (!n || H5Dwrite(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0),
          name);
    H5Dclose(set);
    H5Sclose(space);
}

/* The PMPI wrappers' records of the run below (docs/format.md): one
 * MPI_Allreduce per rank and step on MPI_COMM_WORLD (id 0), 8 bytes. */
static void add_peer_records(const char *path, int64_t steps) {
    enum { RANKS = 4 };
    int64_t ranks[RANKS * 2], zeros[RANKS * 2], none[RANKS * 2], bytes[RANKS * 2], seq[RANKS * 2];
    int64_t comm_ranks[RANKS], comm_ids[RANKS], sizes[RANKS], members[RANKS * RANKS], ones[RANKS];
    size_t n = 0;
    for (int64_t r = 0; r < RANKS; r++) {
        for (int64_t k = 0; k < steps; k++, n++) {
            ranks[n] = r, zeros[n] = 0, none[n] = -1, bytes[n] = 8, seq[n] = k;
        }
        comm_ranks[r] = r, comm_ids[r] = 0, sizes[r] = RANKS, ones[r] = 1;
        for (int64_t k = 0; k < RANKS; k++)
            members[r * RANKS + k] = k;
    }
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    check(file >= 0, "H5Fopen");
    hid_t top = H5Lexists(file, "scope_profiler_c", H5P_DEFAULT) > 0
                    ? H5Gopen2(file, "scope_profiler_c", H5P_DEFAULT)
                    : H5Gcreate2(file, "scope_profiler_c", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(top, "mpi_calls", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(top >= 0 && g >= 0, "mpi_calls group");
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t a =
        H5Acreate2(g, "extension_version", H5T_NATIVE_INT64, scalar, H5P_DEFAULT, H5P_DEFAULT);
    int64_t version = 1;
    check(a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, &version) >= 0, "extension_version");
    H5Aclose(a);
    H5Sclose(scalar);
    peer_column(g, "ranks", ranks, n);
    peer_column(g, "calls", zeros, n);
    peer_column(g, "peers", none, n);
    peer_column(g, "tags", none, n);
    peer_column(g, "communicators", zeros, n);
    peer_column(g, "bytes", bytes, n);
    peer_column(g, "aux", seq, n);
    peer_column(g, "sources", none, n);
    peer_column(g, "source_tags", none, n);
    static const char *const completions[] = {"completion_ranks", "completion_requests",
                                              "completion_sources", "completion_tags"};
    for (size_t i = 0; i < COUNT(completions); i++)
        peer_column(g, completions[i], NULL, 0);
    peer_column(g, "comm_ranks", comm_ranks, RANKS);
    peer_column(g, "comm_ids", comm_ids, RANKS);
    peer_column(g, "comm_sizes", sizes, RANKS);
    peer_column(g, "comm_members", members, RANKS * RANKS);
    peer_column(g, "complete", ones, RANKS);
    const char *name[] = {"MPI_Allreduce"};
    hsize_t one[1] = {1};
    hid_t space = H5Screate_simple(1, one, NULL), type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    hid_t set = H5Dcreate2(g, "call_names", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(set >= 0 && H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, name) >= 0, "call_names");
    H5Dclose(set);
    H5Tclose(type);
    H5Sclose(space);
    H5Gclose(g);
    H5Gclose(top);
    check(H5Fclose(file) >= 0, "H5Fclose");
}

/* 4 ranks, 2 steps of 100 ms, with peer records (the slowest rank outside MPI
 * waits, docs/parallel.md §2): rank r spends PREPARE[r] ms in "prepare", then
 * in "step" computes WORK[r] ms and calls MPI_Allreduce until END[r]. Ranks
 * 0, 2, 3 wait 70, 20, 20 ms per step for rank 1: "step" lasts 90, 75, 51,
 * 51 ms, of which 20, 75, 31, 31 outside the waits. */
static void make_mpi_waits(const char *dir) {
    static const char *const names[] = {"prepare", "step", "compute", "MPI_Allreduce"};
    static const int64_t PREPARE[] = {0, 20, 40, 40}, WORK[] = {10, 60, 20, 20},
                         END[] = {90, 95, 91, 91};
    call calls[32];
    size_t n = 0;
    for (uint32_t r = 0; r < 4; r++)
        for (int64_t k = 0; k < 2; k++) {
            int64_t t = T0 + k * 100 * MS, p = t + PREPARE[r] * MS, w = p + WORK[r] * MS;
            if (PREPARE[r]) calls[n++] = (call){0, r, t, p, NO_THREAD};
            calls[n++] = (call){1, r, p, t + END[r] * MS, NO_THREAD};
            calls[n++] = (call){2, r, p, w, NO_THREAD};
            calls[n++] = (call){3, r, w, t + END[r] * MS, NO_THREAD};
        }
    sp_model m;
    build(&m, names, COUNT(names), calls, n);
    meta_run(&m, "mpi waits", T0, T0 + 200 * MS);
    sp_model_meta_int(&m, "mpi_size", 4);
    write_file(dir, "mpi_waits.h5", &m);
    char path[4096];
    snprintf(path, sizeof path, "%s/mpi_waits.h5", dir);
    add_peer_records(path, 2);
}

/* One rank's file of a 3-rank run (as the MPI library's fallback writes it). */
static void make_rank_file(const char *dir, uint32_t rank) {
    static const char *const names[][3] = {
        {"setup", "solve", NULL}, {"setup", "solve", "io"}, {"solve", "extra", NULL}};
    static const size_t num_names[] = {2, 3, 2};
    static const char *const hosts[] = {"node-a", "node-a", "node-b"};
    int64_t base = T0 + rank * MS; /* rank r is r ms late */
    call calls[] = {{0, rank, base + 0 * MS, base + 2 * MS, NO_THREAD},
                    {1, rank, base + 2 * MS, base + 5 * MS, NO_THREAD},
                    {1, rank, base + 6 * MS, base + (9 + rank) * MS, NO_THREAD},
                    {2, rank, base + 3 * MS, base + 4 * MS, NO_THREAD}};
    size_t n = num_names[rank] == 3 ? 4 : 3;
    sp_model m;
    build(&m, names[rank], num_names[rank], calls, n);
    meta_run(&m, "per-rank run", T0, T0 + 20 * MS);
    sp_model_meta_string(&m, "hostname", hosts[rank]);
    sp_model_meta_int(&m, "mpi_size", 3);
    sp_model_meta_int(&m, "num_nodes", 1);
    sp_model_meta_int(&m, "mpi_rank", rank);
    char name[64];
    snprintf(name, sizeof name, "run.rank%u.h5", rank);
    write_file(dir, name, &m);
}

/* A per-rank file whose rows all say `rank`, with metadata mpi_rank (or none: -1). */
static void make_one_rank(const char *dir, const char *name, uint32_t rank, int64_t mpi_rank) {
    static const char *const names[] = {"kernel"};
    int64_t base = T0 + (mpi_rank > 0 ? mpi_rank : rank) * MS;
    call calls[] = {{0, rank, base, base + 3 * MS, NO_THREAD},
                    {0, rank, base + 4 * MS, base + 6 * MS, NO_THREAD}};
    sp_model m;
    build(&m, names, COUNT(names), calls, COUNT(calls));
    sp_model_meta_string(&m, "label", "one rank");
    sp_model_meta_int(&m, "start_time_ns", T0);
    if (mpi_rank >= 0) sp_model_meta_int(&m, "mpi_rank", mpi_rank);
    sp_model_meta_string(&m, "source_language", "c");
    write_file(dir, name, &m);
}

/* The aggregate layout with one histogram per (rank, region) (top-level
 * paths, thread 0): 100 calls of "work" per rank, 1..100 ms (rank 1 twice as
 * long), 10 of "io", 1..10 ms (twice on rank 1). */
static void make_aggregate_hist(const char *dir) {
    static const char *const names[] = {"work", "io"};
    call calls[220];
    size_t n = 0;
    for (uint32_t rank = 0; rank < 2; rank++)
        for (int i = 0; i < 110; i++) {
            int64_t t = T0 + (int64_t)i * 300 * MS,
                    d = (i < 100 ? i + 1 : i - 99) * MS * (rank + 1);
            calls[n++] = (call){i < 100 ? 0 : 1, rank, t, t + d, NO_THREAD};
        }
    sp_model m;
    build(&m, names, COUNT(names), calls, n);
    meta_run(&m, "aggregate", T0, T0 + 40000 * MS);
    sp_model_meta_int(&m, "mpi_size", 2);
    m.hists = calloc(m.num_rows, sizeof *m.hists);
    check(m.hists != NULL, "calloc");
    for (size_t i = 0; i < m.num_rows; i++) {
        const sp_model_row *r = &m.rows[i];
        sp_model_hist *h = &m.hists[m.num_hists++];
        *h = (sp_model_hist){r->rank, 0, r->region, -1, SP_HIST_INIT, 0, 0.0, -1};
        for (uint64_t e = r->offset; e < r->offset + r->count; e++)
            check(sp_hist_add(&h->hist, m.durations[e]) == SP_OK, "histogram");
    }
    m.layout = SP_LAYOUT_AGGREGATE;
    char path[4096];
    snprintf(path, sizeof path, "%s/aggregate_hist.h5", dir);
    sp_error err = {0};
    check(sp_write_aggregate_model(&m, path, &err) == SP_OK, "aggregate_hist.h5");
    sp_model_clear(&m);
}

/* step > {solve, io} on 2 ranks (rank 1 twice as long), 4 steps, io every
 * other step; written per call (tree_per_call.h5) and aggregated with one
 * histogram and total per (rank, call path) (aggregate_tree.h5). */
static size_t tree_calls(call *calls) {
    size_t n = 0;
    for (uint32_t rank = 0; rank < 2; rank++)
        for (int i = 0; i < 4; i++) {
            int64_t t = T0 + (int64_t)(i + 1) * 40 * MS, k = rank + 1;
            calls[n++] = (call){0, rank, t, t + 10 * MS * k, NO_THREAD};
            calls[n++] = (call){1, rank, t + 1 * MS, t + (2 + i) * MS * k, NO_THREAD};
            if (i % 2 == 0) calls[n++] = (call){2, rank, t + 7 * MS * k, t + 9 * MS * k, NO_THREAD};
        }
    return n;
}

static void make_aggregate_tree(const char *dir) {
    static const char *const names[] = {"step", "solve", "io"};
    call calls[24];
    size_t n = tree_calls(calls);
    sp_model m;
    build(&m, names, COUNT(names), calls, n);
    meta_run(&m, "tree", T0, T0 + 400 * MS);
    sp_model_meta_int(&m, "mpi_size", 2);
    write_file(dir, "tree_per_call.h5", &m);
    build(&m, names, COUNT(names), calls, n);
    meta_run(&m, "tree", T0, T0 + 400 * MS);
    sp_model_meta_int(&m, "mpi_size", 2);
    m.hists = calloc(m.num_rows, sizeof *m.hists);
    check(m.hists != NULL, "calloc");
    int64_t step_row = -1;
    for (size_t i = 0; i < m.num_rows; i++) { /* rows by rank, then region: step first */
        const sp_model_row *r = &m.rows[i];
        if (r->region == 0) step_row = (int64_t)m.num_hists;
        sp_model_hist *h = &m.hists[m.num_hists++];
        *h = (sp_model_hist){
            r->rank,        0,           r->region, r->region == 0 ? -1 : step_row, SP_HIST_INIT,
            r->stats.total, r->stats.m2, -1};
        for (uint64_t e = r->offset; e < r->offset + r->count; e++)
            check(sp_hist_add(&h->hist, m.durations[e]) == SP_OK, "histogram");
    }
    m.hist_totals = m.hist_spread = 1;
    m.layout = SP_LAYOUT_AGGREGATE;
    char path[4096];
    snprintf(path, sizeof path, "%s/aggregate_tree.h5", dir);
    sp_error err = {0};
    check(sp_write_aggregate_model(&m, path, &err) == SP_OK, "aggregate_tree.h5");
    sp_model_clear(&m);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_profiles DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    char out[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    check(mkdir(out, 0777) == 0 || errno == EEXIST, "mkdir out");
    make_meta(dir);
    make_small(dir);
    make_source(dir);
    make_names(dir);
    make_long_names(dir);
    make_threads(dir);
    make_mpi_calls(dir);
    make_mpi_waits(dir);
    for (uint32_t r = 0; r < 3; r++)
        make_rank_file(dir, r);
    make_one_rank(dir, "cb_rank0.h5", 0, 0);
    make_one_rank(dir, "cb_rank1.h5", 0, 1);
    make_one_rank(dir, "dup_a.h5", 1, -1);
    make_one_rank(dir, "dup_b.h5", 1, -1);
    make_one_rank(dir, "gap.rank0.h5", 0, -1);
    make_one_rank(dir, "gap.rank2.h5", 2, -1);
    make_aggregate_hist(dir);
    make_aggregate_tree(dir);
    make_overlap(dir);
    make_user_meta(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *f = fopen(path, "w");
    check(f && fputs("not a profile\n", f) >= 0 && fclose(f) == 0, "notes.txt");
    return 0;
}
