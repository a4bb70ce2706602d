#include "fuzz_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/reader.h"
#include "model/event_window.h"
#include "fuzz_internal.h"

static char scratch[512], scratch_rt[512];

void sp_fuzz_reader_init(void) {
    if (scratch[0]) return;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the builder's refusals are expected */
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    if (!dir) dir = "/tmp";
    snprintf(scratch, sizeof scratch, "%s/sp_fuzz_%ld.h5", dir, (long)getpid());
    snprintf(scratch_rt, sizeof scratch_rt, "%s/sp_fuzz_%ld_rt.h5", dir, (long)getpid());
}

void sp_fuzz_reader_cleanup(void) {
    if (scratch[0]) unlink(scratch);
    if (scratch_rt[0]) unlink(scratch_rt);
}

/* A failed read must be a clean one: a status the file can cause, a one-line
 * message naming the file, an empty model. */
static void check_failure(sp_status st, const sp_error *err, const sp_model *m) {
    FZ_CHECK(st == SP_ERR_NOT_A_PROFILE || st == SP_ERR_SCHEMA_TOO_NEW || st == SP_ERR_DAMAGED ||
             st == SP_ERR_BAD_DATASET);
    FZ_CHECK(err->status == st);
    FZ_CHECK(strncmp(err->message, scratch, strlen(scratch)) == 0);
    FZ_CHECK(strchr(err->message, '\n') == NULL);
    FZ_CHECK(m->rows == NULL && m->num_rows == 0 && m->region_names == NULL && m->meta == NULL);
}

static int64_t calls_dropped(const sp_model *m) {
    const sp_meta_entry *e = sp_model_meta_find(m, SP_CALLS_DROPPED_KEY);
    return e ? e->i : 0;
}

/* The rank-selective read of the same file (ranks 0 and 2) succeeds too and
 * keeps the index; the rows it read hold the same events. Implausible calls
 * are dropped only from the rows a read loads (format/plausibility.c): when
 * the whole read dropped more, the rows it did not load may keep more calls. */
static void check_rank_selective(const sp_model *full) {
    static const uint32_t ranks[] = {2, 0};
    sp_model m;
    sp_error err;
    sp_status st = sp_read_model_ranks(scratch, ranks, 2, &m, &err);
    FZ_CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
    FZ_CHECK(st == SP_OK);
    int fewer_dropped = calls_dropped(&m) < calls_dropped(full);
    FZ_CHECK(calls_dropped(&m) <= calls_dropped(full));
    FZ_CHECK(m.num_rows == full->num_rows);
    FZ_CHECK(fewer_dropped ? m.num_events >= full->num_events : m.num_events == full->num_events);
    FZ_CHECK(m.num_events_loaded <= m.num_events);
    for (size_t i = 0; i < m.num_rows; i++) {
        const sp_model_row *r = &m.rows[i], *w = &full->rows[i];
        FZ_CHECK(r->rank == w->rank);
        FZ_CHECK(!r->events_skipped || (r->rank != 0 && r->rank != 2));
        FZ_CHECK(fewer_dropped && r->events_skipped ? r->count >= w->count : r->count == w->count);
        int events = m.layout == SP_LAYOUT_COLUMNAR && !r->events_skipped;
        for (uint64_t k = 0; events && k < r->count; k++)
            FZ_CHECK(m.starts[r->offset + k] == full->starts[w->offset + k] &&
                     m.durations[r->offset + k] == full->durations[w->offset + k]);
    }
    sp_model_clear(&m);
}

/* The streamed read of the same file: when it streams, every row's window
 * holds the whole read's calls; else it is the whole read. Nothing stays
 * open once the model is cleared. */
static void check_streamed(const sp_model *full) {
    sp_model m;
    sp_error err;
    FZ_CHECK(sp_read_model_streamed(scratch, &m, &err) == SP_OK);
    FZ_CHECK(m.num_rows == full->num_rows && m.num_events == full->num_events);
    sp_event_window w = SP_EVENT_WINDOW_INIT;
    for (size_t i = 0; m.event_source && i < m.num_rows; i++) {
        const sp_model_row *r = &m.rows[i];
        FZ_CHECK(sp_model_events(&m, i, i + 1, &w, &err) == SP_OK);
        FZ_CHECK(w.first == r->offset && w.count == r->count);
        for (uint64_t k = 0; k < r->count; k++)
            FZ_CHECK(w.starts[k] == full->starts[r->offset + k] &&
                     w.durations[k] == full->durations[r->offset + k]);
    }
    sp_event_window_free(&w);
    sp_model_clear(&m);
    FZ_CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
}

/* A file the whole read refuses is refused by the streamed read, word for word. */
static void check_streamed_failure(sp_status st, const sp_error *whole) {
    sp_model m;
    sp_error err;
    FZ_CHECK(sp_read_model_streamed(scratch, &m, &err) == st);
    FZ_CHECK(strcmp(err.message, whole->message) == 0);
    FZ_CHECK(m.event_source == NULL && m.rows == NULL);
    FZ_CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
}

int sp_fuzz_reader_one(const uint8_t *data, size_t size) {
    sp_fuzz_reader_init();
    fz f = {data, size, 0, size};
    unsigned rate = fz_u8(&f);
    f.defect_rate = rate * rate / 1024u; /* mostly low, up to one dataset in four */
    int round_trip = fz_chance(&f, 128);
    fz_build_file(&f, scratch);
    FZ_CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
    sp_model m;
    sp_error err;
    sp_status st = sp_read_model(scratch, &m, &err);
    FZ_CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0); /* nothing left open */
    if (st) {
        if (getenv("SP_FUZZ_VERBOSE")) printf("%d %s\n", st, err.message + strlen(scratch));
        check_failure(st, &err, &m);
        check_streamed_failure(st, &err);
        return 0;
    }
    fz_check_model(&m);
    check_rank_selective(&m);
    check_streamed(&m);
    if (round_trip && m.layout == SP_LAYOUT_COLUMNAR) {
        fz_check_round_trip(&m, scratch_rt);
    } else { /* the public path: results adopt the model and align the ranks' clocks */
        sp_results *r = sp_read(scratch, &err);
        FZ_CHECK(r != NULL);
        FZ_CHECK(sp_results_num_regions(r) == m.num_regions);
        if (m.num_hists) { /* percentiles from the histograms, pooled and per rank */
            sp_summary_rows *rows = sp_results_summary(r, NULL, 1, &err);
            FZ_CHECK(rows != NULL);
            for (size_t i = 0; i < rows->count; i++)
                FZ_CHECK(rows->rows[i].has_percentiles && rows->rows[i].percentile_error > 0);
            sp_summary_rows_free(rows);
        }
        sp_results_free(r);
    }
    sp_model_clear(&m);
    return 1;
}
