/*
 * A large multi-rank profile written straight from a model with the library's
 * own writer (no recording): `ranks` ranks, `regions` regions, `calls` calls
 * per (rank, region) row. Region 0 ("step") is the time step; every other
 * region is called once per step, one after the other inside it, so the call
 * tree is step > (region_001 .. region_NNN). Durations vary with rank and
 * call so that percentiles and rank imbalance are not trivial.
 */
#ifndef SP_BENCH_BIG_PROFILE_H
#define SP_BENCH_BIG_PROFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/writer.h"
#include "model/model.h"

static inline void bench_big_check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "bench_big_profile: %s failed\n", what);
        exit(1);
    }
}

/* The slot of a region call inside its step, in ns. */
#define BENCH_BIG_SLOT_NS 1000

static inline void bench_big_row(sp_model *m, uint32_t rank, uint32_t region, uint32_t regions,
                                 uint64_t calls) {
    uint64_t first = m->num_events;
    int64_t step_ns = (int64_t)regions * BENCH_BIG_SLOT_NS + 100;
    int64_t origin = 1000000 + (int64_t)rank * 37;
    for (uint64_t k = 0; k < calls; k++) {
        int64_t step_start = origin + (int64_t)k * step_ns;
        int64_t start, duration;
        if (region == 0) {
            start = step_start;
            duration = step_ns - 50;
        } else {
            start = step_start + (int64_t)region * BENCH_BIG_SLOT_NS;
            duration = 200 + (int64_t)((rank * 7 + k * 13 + region * 3) % 700);
        }
        m->starts[m->num_events] = start;
        m->durations[m->num_events] = duration;
        m->num_events++;
    }
    sp_model_row *row = &m->rows[m->num_rows++];
    memset(row, 0, sizeof *row);
    row->region = region;
    row->rank = rank;
    row->offset = first;
    row->count = calls;
    row->source_line = -1;
    row->exclusive_total = -1;
    row->source_file = sp_strdup("");
    row->source_text = sp_strdup("");
    row->tags = sp_strdup("[]");
    row->event_metadata = sp_strdup("[]");
    bench_big_check(row->source_file && row->source_text && row->tags && row->event_metadata,
                    "strdup");
    sp_row_stats_compute(&row->stats, m->starts + first, m->durations + first, calls);
    row->has_stats = 1;
}

/* Writes the profile to path with the default ("auto") compression. */
static inline void bench_write_big_profile(const char *path, uint32_t ranks, uint32_t regions,
                                           uint64_t calls) {
    sp_model m;
    memset(&m, 0, sizeof m);
    m.schema = 3;
    m.layout = SP_LAYOUT_COLUMNAR;
    size_t rows = (size_t)ranks * regions, events = rows * calls;
    m.region_names = calloc(regions, sizeof *m.region_names);
    m.rows = calloc(rows, sizeof *m.rows);
    m.starts = malloc(events * sizeof *m.starts);
    m.durations = malloc(events * sizeof *m.durations);
    bench_big_check(m.region_names && m.rows && m.starts && m.durations, "malloc");
    m.num_regions = regions;
    for (uint32_t g = 0; g < regions; g++) {
        char name[32];
        if (g == 0)
            snprintf(name, sizeof name, "step");
        else
            snprintf(name, sizeof name, "region_%03u", (unsigned)g);
        bench_big_check((m.region_names[g] = sp_strdup(name)) != NULL, "strdup");
    }
    for (uint32_t r = 0; r < ranks; r++)
        for (uint32_t g = 0; g < regions; g++)
            bench_big_row(&m, r, g, regions, calls);
    bench_big_check(sp_model_meta_int(&m, "mpi_size", ranks) == SP_OK, "metadata");
    bench_big_check(sp_model_meta_int(&m, "start_time_ns", 1000000) == SP_OK, "metadata");
    int64_t end = 2000000 + (int64_t)calls * ((int64_t)regions * BENCH_BIG_SLOT_NS + 100);
    bench_big_check(sp_model_meta_int(&m, "finalize_time_ns", end) == SP_OK, "metadata");
    sp_write_options options = {SP_COMPRESSION_AUTO, 0};
    sp_error err = {0};
    if (sp_write_model(&m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "bench_big_profile: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(&m);
}

#endif
