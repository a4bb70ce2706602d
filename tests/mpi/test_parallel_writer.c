/*
 * The parallel writer's file equals the stream writer's, value for value:
 * every rank builds a known model (uneven call counts, regions registered in
 * a different order on each rank, a region only even ranks have, thread ids
 * on rank 1 only, strings with quotes, slashes and non-ASCII, and a last
 * rank with no rows and no calls at all), both writers write it, and rank 0
 * reads both files back and compares every field. The script around this
 * program (test_parallel_writer.sh) also diffs h5dump's output of both and
 * reads both with h5py.
 *   test_parallel_writer DIR SCALE   (SCALE calls per unit: 1 small, 400 compressed)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/reader.h"
#include "format/writer.h"
#include "model/model.h"
#include "mpi/parallel_writer.h"
#include "mpi/rank_stream.h"
#include "mpi/region_union.h"
#include "mpi_test_support.h"

static const char *const names[] = {"solve", "io", "a \"quoted\"/name",
                                    "\xc3\xbcnic\xc3\xb6"
                                    "de",
                                    "only_even"};
enum { NAMES = 5 };

/* Rank r's model; the last rank has none of its own regions' calls. */
static void build_model(sp_model *m, int rank, int size, int scale) {
    memset(m, 0, sizeof *m);
    m->schema = 3;
    m->region_names = calloc(NAMES, sizeof *m->region_names);
    for (int i = 0; i < NAMES; i++) {
        const char *name = names[(i + rank) % NAMES];
        if (strcmp(name, "only_even") == 0 && rank % 2) continue;
        m->region_names[m->num_regions++] = sp_strdup(name);
    }
    m->rows = calloc(NAMES, sizeof *m->rows);
    size_t total = 0;
    uint64_t counts[NAMES] = {0};
    for (size_t i = 0; rank != size - 1 && i < m->num_regions; i++) {
        counts[i] = (uint64_t)scale * (uint64_t)(((rank + 1) * (int)(i + 2)) % 7);
        total += counts[i];
    }
    m->starts = malloc((total ? total : 1) * sizeof *m->starts);
    m->durations = malloc((total ? total : 1) * sizeof *m->durations);
    if (rank == 1 && rank != size - 1) {
        m->thread_ids = malloc((total ? total : 1) * sizeof *m->thread_ids);
        m->threads = calloc(2, sizeof *m->threads);
        m->num_threads = 2;
        for (int t = 0; t < 2; t++) {
            m->threads[t] =
                (sp_thread_info){(uint32_t)rank, t,        1000 + t, 2000 + t, (int8_t)t,
                                 5000 + t,       9000 + t, 300 + t,  NULL,     t ? 1 : 0};
            m->threads[t].name = sp_strdup(t ? "worker \"1\"" : "main");
        }
    }
    int64_t clock = 1000000000LL * (rank + 1);
    for (size_t i = 0; i < m->num_regions; i++) {
        if (!counts[i]) continue;
        sp_model_row *row = &m->rows[m->num_rows++];
        row->region = (uint32_t)i;
        row->rank = (uint32_t)rank;
        row->offset = m->num_events;
        row->count = counts[i];
        for (uint64_t j = 0; j < counts[i]; j++) {
            size_t e = m->num_events++;
            clock += 1000 + (int64_t)((j * 7919) % 500);
            m->starts[e] = clock;
            m->durations[e] = (int64_t)((rank * 131 + j * 17) % 1000) + 1;
            if (m->thread_ids) m->thread_ids[e] = (int64_t)(j % 2);
        }
        row->source_line = 10 * (int64_t)i + rank;
        row->exclusive_total = i % 2 ? -1 : (int64_t)counts[i] + rank;
        row->source_file = sp_strdup(i % 2 ? "" : "dir/caf\xc3\xa9 \"x\".c");
        row->source_text = sp_strdup(i == 0 ? "SP_REGION(\"solve\") {\n  work();\n}" : "");
        row->tags = sp_strdup(i == 1 ? "[\"solver\", \"io\"]" : "[]");
        row->event_metadata = sp_strdup("[]");
        row->has_message_bytes = rank == 0 && i == 0;
        row->message_bytes = row->has_message_bytes ? 4096 : 0;
        sp_row_stats_compute(&row->stats, m->starts + row->offset, m->durations + row->offset,
                             row->count);
        row->has_stats = 1;
    }
    if (rank == 0) {
        sp_model_meta_int(m, "start_time_ns", 900000000);
        sp_model_meta_string(m, "label", "writers \"equal\" \xe2\x9c\x93");
        sp_model_meta_float(m, "ratio", 0.125);
        const char *modules[] = {"gcc/12", "openmpi/4.1"};
        sp_model_meta_list(m, "modules", modules, 2);
        sp_model_meta_int(m, "mpi_size", size);
    }
}

static void write_stream(MPI_Comm comm, int rank, int size, const sp_model *own,
                         const sp_region_union *u, uint64_t total, int threads,
                         const sp_clock_offset *offsets, const char *path) {
    if (rank != 0) {
        CHECK(sp_mpi_send_rank(comm, own) == MPI_SUCCESS, "rank %d: send", rank);
        return;
    }
    sp_error err = {SP_OK, ""};
    sp_write_options wo = {SP_COMPRESSION_AUTO, 0};
    sp_writer *w = sp_writer_create(path, total, threads, &wo, &err);
    CHECK(w != NULL, "stream writer: %s", err.message);
    sp_status st = sp_writer_put_regions(w, u->names, u->num_names, &err);
    if (!st) st = sp_writer_put_metadata(w, own->meta, own->num_meta, &err);
    for (int r = 0; r < size; r++) {
        sp_status rs = sp_mpi_receive_rank(comm, r, own, w, u->map[r], u->map_length[r], &err);
        if (!st) st = rs;
    }
    if (!st) st = sp_writer_put_clock_offsets(w, offsets, (size_t)size, &err);
    if (!st) st = sp_writer_commit(w, &err);
    CHECK(st == SP_OK, "stream writer: %s", err.message);
}

#define SAME(a, b, ...)     CHECK((a) == (b), __VA_ARGS__)
#define SAME_STR(a, b, ...) CHECK(strcmp((a), (b)) == 0, __VA_ARGS__)

static void compare_rows(const sp_model *a, const sp_model *b) {
    SAME(a->num_rows, b->num_rows, "rows: %zu != %zu", a->num_rows, b->num_rows);
    for (size_t i = 0; i < a->num_rows && i < b->num_rows; i++) {
        const sp_model_row *x = &a->rows[i], *y = &b->rows[i];
        SAME(x->region, y->region, "row %zu region", i);
        SAME(x->rank, y->rank, "row %zu rank", i);
        SAME(x->offset, y->offset, "row %zu offset", i);
        SAME(x->count, y->count, "row %zu count", i);
        SAME(x->source_line, y->source_line, "row %zu line", i);
        SAME(x->exclusive_total, y->exclusive_total, "row %zu exclusive", i);
        SAME_STR(x->source_file, y->source_file, "row %zu file", i);
        SAME_STR(x->source_text, y->source_text, "row %zu text", i);
        SAME_STR(x->tags, y->tags, "row %zu tags", i);
        SAME_STR(x->event_metadata, y->event_metadata, "row %zu event_metadata", i);
        CHECK(memcmp(&x->stats, &y->stats, sizeof x->stats) == 0, "row %zu statistics", i);
        SAME(x->has_message_bytes, y->has_message_bytes, "row %zu has bytes", i);
        SAME(x->message_bytes, y->message_bytes, "row %zu bytes", i);
    }
}

static void compare_columns(const sp_model *a, const sp_model *b) {
    SAME(a->num_events, b->num_events, "events: %zu != %zu", a->num_events, b->num_events);
    size_t n = a->num_events < b->num_events ? a->num_events : b->num_events;
    CHECK(memcmp(a->starts, b->starts, n * 8) == 0, "starts differ");
    CHECK(memcmp(a->durations, b->durations, n * 8) == 0, "durations differ");
    SAME(!a->thread_ids, !b->thread_ids, "thread id column present in one file only");
    if (a->thread_ids && b->thread_ids)
        CHECK(memcmp(a->thread_ids, b->thread_ids, n * 8) == 0, "thread ids differ");
}

static void compare_tables(const sp_model *a, const sp_model *b) {
    SAME(a->num_regions, b->num_regions, "regions");
    for (size_t i = 0; i < a->num_regions && i < b->num_regions; i++)
        SAME_STR(a->region_names[i], b->region_names[i], "region %zu", i);
    SAME(a->num_meta, b->num_meta, "metadata entries");
    for (size_t i = 0; i < a->num_meta && i < b->num_meta; i++) {
        const sp_meta_entry *x = &a->meta[i], *y = &b->meta[i];
        SAME_STR(x->key, y->key, "metadata %zu key", i);
        SAME(x->type, y->type, "metadata %s type", x->key);
        SAME(x->i, y->i, "metadata %s", x->key);
        CHECK(x->f == y->f, "metadata %s", x->key);
        if (x->s && y->s) SAME_STR(x->s, y->s, "metadata %s", x->key);
        SAME(x->list_len, y->list_len, "metadata %s length", x->key);
        for (size_t k = 0; k < x->list_len && k < y->list_len; k++)
            SAME_STR(x->list[k], y->list[k], "metadata %s[%zu]", x->key, k);
    }
    SAME(a->num_threads, b->num_threads, "threads");
    for (size_t i = 0; i < a->num_threads && i < b->num_threads; i++) {
        const sp_thread_info *x = &a->threads[i], *y = &b->threads[i];
        CHECK(x->rank == y->rank && x->index == y->index && x->ident == y->ident &&
                  x->native_id == y->native_id && x->daemon == y->daemon &&
                  x->start_ns == y->start_ns && x->end_ns == y->end_ns && x->cpu_ns == y->cpu_ns &&
                  x->parent_slot == y->parent_slot,
              "thread %zu", i);
        SAME_STR(x->name, y->name, "thread %zu name", i);
    }
    SAME(a->num_clock_offsets, b->num_clock_offsets, "clock offsets");
    for (size_t i = 0; i < a->num_clock_offsets && i < b->num_clock_offsets; i++)
        CHECK(memcmp(&a->clock_offsets[i], &b->clock_offsets[i], sizeof *a->clock_offsets) == 0,
              "clock offset %zu", i);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3) {
        if (rank == 0) fprintf(stderr, "usage: test_parallel_writer DIR SCALE\n");
        MPI_Finalize();
        return 2;
    }
    int scale = atoi(argv[2]);
    char stream_path[4096], parallel_path[4096];
    snprintf(stream_path, sizeof stream_path, "%s/stream.h5", argv[1]);
    snprintf(parallel_path, sizeof parallel_path, "%s/parallel.h5", argv[1]);
    sp_model own;
    build_model(&own, rank, size, scale);
    sp_region_union u;
    CHECK(sp_region_union_build(MPI_COMM_WORLD, rank, size, own.region_names, own.num_regions,
                                &u) == MPI_SUCCESS,
          "region union");
    uint64_t mine = own.num_events, total = 0;
    int my_threads = own.thread_ids != NULL, threads = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&my_threads, &threads, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    sp_clock_offset *offsets = calloc((size_t)size, sizeof *offsets);
    for (int r = 0; r < size; r++)
        offsets[r] = (sp_clock_offset){(uint32_t)r, 100 * r - 50, 5 + r};

    write_stream(MPI_COMM_WORLD, rank, size, &own, &u, total, threads, offsets, stream_path);
    sp_parallel_input in = {&own,    &u,           own.meta,      own.num_meta,
                            offsets, (size_t)size, parallel_path, {SP_COMPRESSION_AUTO, 0},
                            NULL,    NULL};
    sp_error err = {SP_OK, ""};
    sp_status st = sp_mpi_write_parallel(MPI_COMM_WORLD, rank, size, &in, &err);
    CHECK(st == SP_OK, "rank %d: parallel writer: %s", rank, err.message);
    int64_t first_start = own.num_events ? own.starts[own.num_events - 1] : 0;
    sp_model check;
    build_model(&check, rank, size, scale);
    CHECK(!own.num_events || check.starts[own.num_events - 1] == first_start,
          "the writer left the model's starts changed");
    sp_model_clear(&check);

    if (rank == 0) {
        sp_model a, b;
        sp_error ea = {SP_OK, ""}, eb = {SP_OK, ""};
        CHECK(sp_read_model(stream_path, &a, &ea) == SP_OK, "read stream: %s", ea.message);
        CHECK(sp_read_model(parallel_path, &b, &eb) == SP_OK, "read parallel: %s", eb.message);
        if (!ea.status && !eb.status) {
            compare_tables(&a, &b);
            compare_rows(&a, &b);
            compare_columns(&a, &b);
            SAME(a.num_events, (size_t)total, "events written");
            printf("%d ranks: %zu regions, %zu rows, %zu calls, %zu threads: %s\n", size,
                   a.num_regions, a.num_rows, a.num_events, a.num_threads,
                   failures ? "DIFFERENT" : "equal");
            sp_model_clear(&a);
            sp_model_clear(&b);
        }
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(offsets);
    sp_region_union_free(&u);
    sp_model_clear(&own);
    MPI_Finalize();
    return all ? 1 : 0;
}
