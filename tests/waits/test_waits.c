/*
 * Wait states and POP efficiencies (src/waits, docs/parallel.md §6) on
 * hand-built runs with exact times, so that every figure is known: a
 * barrier after unequal work (POP, waits from entry times), a two-rank
 * exchange that serialises (Late Sender both ways, serialisation 0.5), a
 * rendezvous send (Late Receiver and the eager assumption), Irecv + Waitall
 * with a message nobody receives, and records that do not line up.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "model/results_model.h"
#include "scope_profiler/balance.h"
#include "waits/waits.h"

#define MS 1000000LL

#define assert_near(a, b)                                                                          \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= 1e-9)) fail_msg("%s = %.12g, expected %.12g", #a, a_, b_);          \
    } while (0)

typedef struct call {
    uint32_t rank;
    const char *region;
    int64_t start_ms, end_ms;
} call;

static int compare_calls(const void *a, const void *b) {
    const call *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    int c = strcmp(x->region, y->region);
    if (c) return c;
    return (x->start_ms > y->start_ms) - (x->start_ms < y->start_ms);
}

/* A model of the calls: one row per (rank, region), events by start. */
static sp_model build(call *calls, size_t n) {
    qsort(calls, n, sizeof *calls, compare_calls);
    sp_model m = {0};
    m.region_names = calloc(n, sizeof *m.region_names);
    m.rows = calloc(n, sizeof *m.rows);
    m.starts = calloc(n, sizeof *m.starts);
    m.durations = calloc(n, sizeof *m.durations);
    assert_non_null(m.rows);
    for (size_t i = 0; i < n; i++) {
        uint32_t region = 0;
        while (region < m.num_regions && strcmp(m.region_names[region], calls[i].region) != 0)
            region++;
        if (region == m.num_regions) m.region_names[m.num_regions++] = strdup(calls[i].region);
        if (!m.num_rows || m.rows[m.num_rows - 1].rank != calls[i].rank ||
            m.rows[m.num_rows - 1].region != region)
            m.rows[m.num_rows++] =
                (sp_model_row){.region = region, .rank = calls[i].rank, .offset = i};
        m.rows[m.num_rows - 1].count++;
        m.starts[i] = calls[i].start_ms * MS;
        m.durations[i] = (calls[i].end_ms - calls[i].start_ms) * MS;
    }
    m.num_events = n;
    return m;
}

static void free_model(sp_model *m) {
    for (size_t i = 0; i < m->num_regions; i++)
        free(m->region_names[i]);
    free(m->region_names);
    free(m->rows);
    free(m->starts);
    free(m->durations);
}

static const sp_wait_row *find(const sp_waits *w, sp_wait_kind kind, uint32_t waiting) {
    for (size_t i = 0; i < w->num_rows; i++)
        if (w->rows[i].kind == kind && w->rows[i].waiting_rank == waiting) return &w->rows[i];
    return NULL;
}

/* 4 ranks compute 50, 60, 70, 80 ms, then a barrier that ends at 90 ms. */
static void test_barrier_pop(void **state) {
    (void)state;
    call calls[8];
    for (uint32_t r = 0; r < 4; r++) {
        calls[2 * r] = (call){r, "compute", 0, 50 + 10 * (int64_t)r};
        calls[2 * r + 1] = (call){r, "MPI_Barrier", 50 + 10 * (int64_t)r, 90};
    }
    sp_model m = build(calls, 8);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, NULL, 65536, &w, &err), SP_OK);
    assert_int_equal(w.peer_data, 0);
    assert_int_equal(w.collectives, 1);
    for (uint32_t r = 0; r < 3; r++) {
        const sp_wait_row *row = find(&w, SP_WAIT_COLLECTIVE, r);
        assert_non_null(row);
        assert_int_equal(row->wait_ns, (30 - 10 * (int64_t)r) * MS);
        assert_int_equal(row->late_rank, 3);
        assert_string_equal(row->late_path, "compute");
        assert_string_equal(row->call_path, "MPI_Barrier");
    }
    assert_null(find(&w, SP_WAIT_COLLECTIVE, 3));
    /* useful 50..80 (mean 65), runtime 90, ideal max(useful + wait) = 80 */
    assert_int_equal(w.pop.runtime_ns, 90 * MS);
    assert_int_equal(w.pop.ideal_runtime_ns, 80 * MS);
    assert_near(w.pop.load_balance, 65.0 / 80);
    assert_near(w.pop.communication, 80.0 / 90);
    assert_near(w.pop.serialisation, 1.0);
    assert_near(w.pop.transfer, 80.0 / 90);
    assert_near(w.pop.parallel, 65.0 / 90);
    sp_waits_free(&w);
    free_model(&m);
}

/* The peer table's columns, one record per call. */
typedef struct rec {
    int64_t rank, call, peer, tag, bytes, aux, source, source_tag;
} rec;

static int64_t *column(const rec *r, size_t n, size_t field) {
    int64_t *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = ((const int64_t *)&r[i])[field];
    return out;
}

static int64_t *values(const int64_t *v, size_t n) {
    int64_t *out = malloc((n ? n : 1) * sizeof *out);
    memcpy(out, v, n * sizeof *out);
    return out;
}

static const char *const NAMES[] = {"MPI_Send",  "MPI_Recv", "MPI_Isend",
                                    "MPI_Irecv", "MPI_Wait", "MPI_Waitall"};
enum { SEND, RECV, ISEND, IRECV, WAIT, WAITALL };

/* A table of two ranks on MPI_COMM_WORLD; completions as (rank, request, source, tag). */
static sp_peer_table table(const rec *r, size_t n, const int64_t (*done)[4], size_t nd) {
    sp_peer_table t = {0};
    t.n = n;
    t.ranks = column(r, n, 0);
    t.calls = column(r, n, 1);
    t.peers = column(r, n, 2);
    t.tags = column(r, n, 3);
    t.bytes = column(r, n, 4);
    t.aux = column(r, n, 5);
    t.sources = column(r, n, 6);
    t.source_tags = column(r, n, 7);
    t.comms = calloc(n, sizeof *t.comms);
    t.num_completions = nd;
    t.c_ranks = malloc((nd ? nd : 1) * sizeof(int64_t));
    t.c_requests = malloc((nd ? nd : 1) * sizeof(int64_t));
    t.c_sources = malloc((nd ? nd : 1) * sizeof(int64_t));
    t.c_tags = malloc((nd ? nd : 1) * sizeof(int64_t));
    for (size_t i = 0; i < nd; i++) {
        t.c_ranks[i] = done[i][0];
        t.c_requests[i] = done[i][1];
        t.c_sources[i] = done[i][2];
        t.c_tags[i] = done[i][3];
    }
    t.num_comms = 2;
    t.comm_ranks = values((int64_t[]){0, 1}, 2);
    t.comm_ids = values((int64_t[]){0, 0}, 2);
    t.comm_sizes = values((int64_t[]){2, 2}, 2);
    t.num_members = 4;
    t.comm_members = values((int64_t[]){0, 1, 0, 1}, 4);
    t.num_complete = 2;
    t.complete = values((int64_t[]){1, 1}, 2);
    t.num_call_names = sizeof NAMES / sizeof *NAMES;
    t.call_names = malloc(sizeof NAMES);
    for (size_t i = 0; i < t.num_call_names; i++)
        t.call_names[i] = strdup(NAMES[i]);
    return t;
}

/* Rank 0 computes, sends; rank 1 receives, computes, replies: each waits 10 ms for the other. */
static void test_serialised_exchange(void **state) {
    (void)state;
    call calls[] = {{0, "compute", 0, 10},  {0, "MPI_Send", 10, 12}, {0, "MPI_Recv", 12, 24},
                    {1, "MPI_Recv", 0, 12}, {1, "compute", 12, 22},  {1, "MPI_Send", 22, 24}};
    sp_model m = build(calls, 6);
    rec r[] = {{0, SEND, 1, 0, 8, 0, -1, -1},
               {0, RECV, 1, 0, 8, 0, 1, 0},
               {1, RECV, 0, 0, 8, 0, 0, 0},
               {1, SEND, 0, 0, 8, 0, -1, -1}};
    sp_peer_table t = table(r, 4, NULL, 0);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, &t, 65536, &w, &err), SP_OK);
    assert_int_equal(w.messages, 2);
    assert_int_equal(w.unmatched_sends + w.unmatched_receives + w.unaligned_calls, 0);
    for (uint32_t waiting = 0; waiting < 2; waiting++) {
        const sp_wait_row *row = find(&w, SP_WAIT_LATE_SENDER, waiting);
        assert_non_null(row);
        assert_int_equal(row->wait_ns, 10 * MS);
        assert_int_equal(row->late_rank, 1 - waiting);
        assert_string_equal(row->late_path, "compute");
        assert_string_equal(row->call_path, "MPI_Recv");
    }
    /* useful 10 each, runtime 24, ideal max(10 + 10) = 20 */
    assert_near(w.pop.load_balance, 1.0);
    assert_near(w.pop.communication, 10.0 / 24);
    assert_near(w.pop.serialisation, 0.5);
    assert_near(w.pop.transfer, 20.0 / 24);
    assert_near(w.pop.parallel, 10.0 / 24);
    sp_waits_free(&w);
    sp_peer_table_free(&t);
    free_model(&m);
}

/* A 1 MiB MPI_Send blocks until rank 1 posts its receive after 10 ms of work. */
static void test_late_receiver(void **state) {
    (void)state;
    call calls[] = {{0, "MPI_Send", 0, 15}, {1, "compute", 0, 10}, {1, "MPI_Recv", 10, 15}};
    sp_model m = build(calls, 3);
    rec r[] = {{0, SEND, 1, 4, 1 << 20, 0, -1, -1}, {1, RECV, 0, 4, 1 << 20, 0, 0, 4}};
    sp_peer_table t = table(r, 2, NULL, 0);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, &t, 65536, &w, &err), SP_OK);
    const sp_wait_row *row = find(&w, SP_WAIT_LATE_RECEIVER, 0);
    assert_non_null(row);
    assert_int_equal(row->wait_ns, 10 * MS);
    assert_int_equal(row->late_rank, 1);
    assert_string_equal(row->late_path, "compute");
    assert_int_equal(w.total_ns[SP_WAIT_LATE_SENDER], 0);
    sp_waits_free(&w);
    /* eager up to 2 MiB: the send never waits for the receive */
    assert_int_equal(sp_waits_compute(&m, &t, 2 << 20, &w, &err), SP_OK);
    assert_null(find(&w, SP_WAIT_LATE_RECEIVER, 0));
    assert_int_equal(w.messages, 1);
    sp_waits_free(&w);
    sp_peer_table_free(&t);
    free_model(&m);
}

/* Irecv + Waitall on rank 0, ANY_SOURCE resolved through the completion; rank 1 also sends a
 * message with a tag nobody receives. */
static void test_irecv_waitall_unmatched(void **state) {
    (void)state;
    call calls[] = {{0, "MPI_Irecv", 0, 1},   {0, "MPI_Waitall", 1, 20}, {1, "compute", 0, 15},
                    {1, "MPI_Isend", 15, 16}, {1, "MPI_Wait", 16, 17},   {1, "MPI_Send", 17, 18}};
    sp_model m = build(calls, 6);
    rec r[] = {{0, IRECV, -2, -2, 8, 1, -1, -1},
               {0, WAITALL, -1, -1, 0, 0, 1, -1},
               {1, ISEND, 0, 5, 8, 1, -1, -1},
               {1, WAIT, -1, -1, 0, 0, 1, -1},
               {1, SEND, 0, 6, 8, 0, -1, -1}};
    const int64_t done[][4] = {{0, 1, 1, 5}, {1, 1, -1, -1}};
    sp_peer_table t = table(r, 5, done, 2);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, &t, 65536, &w, &err), SP_OK);
    assert_int_equal(w.messages, 1);
    assert_int_equal(w.unmatched_sends, 1);
    assert_int_equal(w.unmatched_receives, 0);
    const sp_wait_row *row = find(&w, SP_WAIT_LATE_SENDER, 0);
    assert_non_null(row);
    assert_int_equal(row->wait_ns, 14 * MS);
    assert_int_equal(row->late_rank, 1);
    assert_string_equal(row->call_path, "MPI_Waitall");
    assert_string_equal(row->late_path, "compute");
    sp_waits_free(&w);
    sp_peer_table_free(&t);
    free_model(&m);
}

/* Two records of MPI_Recv on rank 1 but one event: nothing of rank 1's receives is paired. */
static void test_unaligned(void **state) {
    (void)state;
    call calls[] = {{0, "MPI_Send", 5, 6}, {1, "MPI_Recv", 0, 6}};
    sp_model m = build(calls, 2);
    rec r[] = {
        {0, SEND, 1, 0, 8, 0, -1, -1}, {1, RECV, 0, 0, 8, 0, 0, 0}, {1, RECV, 0, 0, 8, 0, 0, 0}};
    sp_peer_table t = table(r, 3, NULL, 0);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, &t, 65536, &w, &err), SP_OK);
    assert_int_equal(w.unaligned_calls, 2);
    assert_int_equal(w.messages, 0);
    assert_int_equal(w.unmatched_sends, 1);
    assert_int_equal(w.num_rows, 0);
    sp_waits_free(&w);
    sp_peer_table_free(&t);
    free_model(&m);
}

/* 4 ranks in "main": compute 20, 30, 40, 80 ms, then an MPI_Allreduce that ends at 90 ms.
 * Ranks 0-2 wait 60, 50, 40 ms for rank 3's compute: the cause outside `waits`. */
static void test_cause_and_region_waits(void **state) {
    (void)state;
    call calls[12];
    static const int64_t work[] = {20, 30, 40, 80};
    for (uint32_t r = 0; r < 4; r++) {
        calls[3 * r] = (call){r, "main", 0, 95};
        calls[3 * r + 1] = (call){r, "compute", 0, work[r]};
        calls[3 * r + 2] = (call){r, "MPI_Allreduce", work[r], 90};
    }
    sp_model m = build(calls, 12);
    sp_waits w;
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, NULL, 65536, &w, &err), SP_OK);
    sp_wait_cause c;
    assert_int_equal(sp_waits_largest_cause(&w, &c), 1);
    assert_int_equal(c.late_rank, 3);
    assert_string_equal(c.late_path, "main > compute");
    assert_int_equal(c.wait_ns, 150 * MS);
    static const int64_t waited[] = {60, 50, 40, 0};
    for (uint32_t r = 0; r < 4; r++) {
        /* the call's own region and every region around it */
        assert_int_equal(sp_waits_in_region(&w, r, "MPI_Allreduce", &c), waited[r] * MS);
        if (r < 3) {
            assert_int_equal(c.late_rank, 3);
            assert_string_equal(c.late_path, "main > compute");
            assert_int_equal(c.wait_ns, waited[r] * MS);
        } else {
            assert_null(c.late_path);
        }
        assert_int_equal(sp_waits_in_region(&w, r, "main", &c), waited[r] * MS);
        /* not inside compute, and a name's prefix is not the region */
        assert_int_equal(sp_waits_in_region(&w, r, "compute", &c), 0);
        assert_null(c.late_path);
        assert_int_equal(sp_waits_in_region(&w, r, "mai", &c), 0);
        assert_int_equal(sp_waits_in_region(&w, r, "MPI_Allreduc", &c), 0);
    }
    /* POP per call path, MPI paths left out, longest first. main: useful 25, 35, 45, 85 (95 ms
     * less the Allreduce's 70, 60, 50, 10), waits 60, 50, 40, 0: ideal 85, runtime 95. */
    assert_int_equal(w.num_paths, 2);
    assert_string_equal(w.paths[0].path, "main");
    const sp_pop *p = &w.paths[0].pop;
    assert_int_equal(p->runtime_ns, 95 * MS);
    assert_int_equal(p->ideal_runtime_ns, 85 * MS);
    assert_near(p->load_balance, 47.5 / 85);
    assert_near(p->communication, 85.0 / 95);
    assert_near(p->serialisation, 1.0);
    assert_near(p->transfer, 85.0 / 95);
    assert_near(p->parallel, 0.5);
    /* main > compute: no MPI inside, 20..80 ms */
    assert_string_equal(w.paths[1].path, "main > compute");
    p = &w.paths[1].pop;
    assert_int_equal(p->runtime_ns, 80 * MS);
    assert_near(p->load_balance, 42.5 / 80);
    assert_near(p->communication, 1.0);
    assert_near(p->serialisation, 1.0);
    assert_near(p->transfer, 1.0);
    assert_near(p->parallel, 42.5 / 80);
    sp_waits_free(&w);
    free_model(&m);
}

/* The slowest rank outside MPI waits (issue 25 item 4; docs/parallel.md §2).
 * Rank r prepares PREPARE[r] ms (region "prepare"), then in "step" computes
 * WORK[r] ms and calls MPI_Allreduce, which ends at END[r]: arrivals 10,
 * 80, 60, 60 ms, so ranks 0, 2, 3 wait 70, 20, 20 ms for rank 1. "step"
 * lasts 90, 75, 51, 51 ms (rank 0 longest), 20, 75, 31, 31 ms outside the
 * waits (rank 1 longest); the Allreduce 80, 15, 31, 31 ms, 10, 15, 11, 11
 * outside them. */
static const int64_t PREPARE[] = {0, 20, 40, 40}, WORK[] = {10, 60, 20, 20},
                     END[] = {90, 95, 91, 91};

static sp_results *outside_run(sp_waits *w) {
    call calls[16];
    size_t n = 0;
    for (uint32_t r = 0; r < 4; r++) {
        if (PREPARE[r]) calls[n++] = (call){r, "prepare", 0, PREPARE[r]};
        calls[n++] = (call){r, "step", PREPARE[r], END[r]};
        calls[n++] = (call){r, "compute", PREPARE[r], PREPARE[r] + WORK[r]};
        calls[n++] = (call){r, "MPI_Allreduce", PREPARE[r] + WORK[r], END[r]};
    }
    sp_model m = build(calls, n);
    sp_error err = {0};
    assert_int_equal(sp_waits_compute(&m, NULL, 65536, w, &err), SP_OK);
    sp_results *r = sp_results_adopt(&m, &err);
    assert_non_null(r);
    return r;
}

static const sp_table_row *row_named(const sp_table_rows *t, const char *path) {
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].call_path && strcmp(t->rows[i].call_path, path) == 0) return &t->rows[i];
    fail_msg("no row %s", path);
    return NULL;
}

static char *balance_json(const sp_results *r) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    sp_error err = {0};
    assert_int_equal(sp_write_balance_json(r, f, NULL, &err), SP_OK);
    fclose(f);
    return text;
}

static void test_slowest_outside_waits(void **state) {
    (void)state;
    sp_waits w;
    sp_results *r = outside_run(&w);
    const sp_mpi_region *step = sp_results_get(r, "step", NULL);
    const sp_mpi_region *allreduce = sp_results_get(r, "MPI_Allreduce", NULL);
    sp_balance b, out;
    /* nothing attached: as before, and no outside figures */
    assert_int_equal(sp_results_excluded_state(r), 0);
    assert_int_equal(sp_region_outside_balance(step, NULL, 0, &out), SP_ERR_UNAVAILABLE);
    assert_int_equal(sp_waits_attach(r, &w), SP_OK);
    assert_int_equal(sp_results_excluded_state(r), 1);
    static const int64_t waited[] = {70, 0, 20, 20};
    for (uint32_t k = 0; k < 4; k++) {
        assert_int_equal(sp_results_excluded_ns(r, k, "step", SP_EXCLUDED_INSIDE_REGION),
                         waited[k] * MS);
        assert_int_equal(sp_results_excluded_ns(r, k, "MPI_Allreduce", SP_EXCLUDED_OWN),
                         waited[k] * MS);
        assert_int_equal(sp_results_excluded_ns(r, k, "step", SP_EXCLUDED_OWN), 0);
        assert_int_equal(sp_results_excluded_ns(r, k, "compute", SP_EXCLUDED_INSIDE_REGION), 0);
        assert_int_equal(sp_results_excluded_ns(r, k, "ste", SP_EXCLUDED_INSIDE_REGION), 0);
        assert_int_equal(
            sp_results_excluded_ns(r, k, "step > MPI_Allreduce", SP_EXCLUDED_UNDER_PATH),
            waited[k] * MS);
        assert_int_equal(sp_results_excluded_ns(r, k, "step > compute", SP_EXCLUDED_UNDER_PATH), 0);
    }
    /* the whole time names rank 0, the time outside the waits rank 1 */
    assert_int_equal(sp_mpi_region_rank_balance(step, &b, NULL), SP_OK);
    assert_int_equal(b.slowest_rank, 0);
    assert_near(b.max, 0.090);
    assert_int_equal(sp_region_outside_balance(step, NULL, 0, &out), SP_OK);
    assert_int_equal(out.count, 4);
    assert_int_equal(out.slowest_rank, 1);
    assert_near(out.max, 0.075);
    assert_int_equal(out.fastest_rank, 0);
    assert_near(out.min, 0.020);
    assert_near(out.mean, (20 + 75 + 31 + 31) / 4.0 / 1000);
    assert_int_equal(sp_mpi_region_rank_balance(allreduce, &b, NULL), SP_OK);
    assert_int_equal(b.slowest_rank, 0);
    assert_int_equal(sp_region_outside_balance(allreduce, NULL, 0, &out), SP_OK);
    assert_int_equal(out.slowest_rank, 1);
    assert_near(out.max, 0.015);
    assert_near(out.min, 0.010);
    /* --ranks 0,2,3: rank 2 (31 ms, the lowest of the tie with rank 3) */
    static const uint32_t some[] = {0, 2, 3};
    assert_int_equal(sp_region_outside_balance(step, some, 3, &out), SP_OK);
    assert_int_equal(out.count, 3);
    assert_int_equal(out.slowest_rank, 2);
    assert_near(out.max, 0.031);
    /* the table's path rows */
    sp_table_rows t;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &t, &err), SP_OK);
    assert_int_equal(t.excluded_state, 1);
    const sp_table_row *row = row_named(&t, "step");
    assert_true(row->has_outside);
    assert_int_equal(row->rank_balance.slowest_rank, 0);
    assert_int_equal(row->outside_balance.slowest_rank, 1);
    assert_near(row->outside_balance.max, 0.075);
    row = row_named(&t, "step > MPI_Allreduce");
    assert_int_equal(row->rank_balance.slowest_rank, 0);
    assert_int_equal(row->outside_balance.slowest_rank, 1);
    assert_near(row->outside_balance.max, 0.015);
    row = row_named(&t, "step > compute");
    assert_int_equal(row->outside_balance.slowest_rank, 1);
    assert_near(row->outside_balance.max, 0.060);
    sp_table_rows_free(&t);
    /* the balance JSON: a field of its own, the old ones unchanged */
    char *json = balance_json(r);
    assert_non_null(strstr(json, "\n  \"mpi_waits\": \"known\",\n"));
    const char *at = strstr(json, "\"name\": \"step\",\n      \"ranks\": {");
    assert_non_null(at);
    assert_non_null(strstr(at, "\"max\": 0.09,\n        \"min\": 0.051,"));
    assert_non_null(strstr(at, "\"slowest_rank\": 0,\n        \"fastest_rank\": 2\n      },\n"
                               "      \"outside_waits\": {\n        \"ranks\": 4,\n"
                               "        \"mean\": 0.03925,\n        \"max\": 0.075,\n"
                               "        \"min\": 0.02,"));
    at = strstr(at, "\"outside_waits\"");
    assert_non_null(strstr(at, "\"slowest_rank\": 1,\n        \"fastest_rank\": 0\n      },"));
    free(json);
    /* waits unknown (no peer records): as before, and said */
    assert_int_equal(sp_waits_attach(r, NULL), SP_OK);
    assert_int_equal(sp_results_excluded_state(r), -1);
    assert_int_equal(sp_region_outside_balance(step, NULL, 0, &out), SP_ERR_UNAVAILABLE);
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &t, &err), SP_OK);
    assert_int_equal(t.excluded_state, -1);
    assert_false(row_named(&t, "step")->has_outside);
    sp_table_rows_free(&t);
    json = balance_json(r);
    assert_non_null(strstr(json, "\n  \"mpi_waits\": \"unknown\",\n"));
    assert_null(strstr(json, "outside_waits"));
    free(json);
    sp_waits_free(&w);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_pop),
        cmocka_unit_test(test_serialised_exchange),
        cmocka_unit_test(test_late_receiver),
        cmocka_unit_test(test_irecv_waitall_unmatched),
        cmocka_unit_test(test_unaligned),
        cmocka_unit_test(test_cause_and_region_waits),
        cmocka_unit_test(test_slowest_outside_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
