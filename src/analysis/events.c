/* events(): every selected call, region by region (get_regions order), then
 * rank by rank, then in recorded order (§2.5). */
#include <stdlib.h>

#include "analysis/clock_alignment.h"
#include "analysis/filter.h"
#include "analysis/regions.h"
#include "common/error.h"
#include "analysis/region_entry.h"
#include "analysis/unavailable.h"
#include "model/event_window.h"

struct sp_event_iter {
    const sp_results *r;
    sp_compiled_filter *filter;
    uint32_t *regions;
    size_t num_regions;
    size_t region;   /* current position in regions */
    size_t rank_pos; /* current position in the region's rank sequence */
    uint64_t call;   /* next call of the current (region, rank) row */
    double origin;   /* seconds subtracted from start and end */
    int64_t origin_ns;
    int raw_clocks;      /* undo each rank's clock alignment */
    size_t offset_hint;  /* for sp_rank_clock_offset */
    sp_event_window win; /* the current row's calls */
    sp_error err;        /* why a window could not be read (streamed results) */
    int failed;
};

sp_event_iter *sp_events_open(const sp_results *r, const sp_event_options *options, sp_error *err) {
    if (!sp_columnar(r)) {
        sp_unavailable(r, "events", err);
        return NULL;
    }
    sp_event_iter *it = calloc(1, sizeof *it);
    if (!it) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    it->r = r;
    it->filter = sp_filter_compile(options ? &options->filter : NULL, err);
    if (!it->filter || sp_select_regions(r, it->filter, &it->regions, &it->num_regions, err)) {
        sp_events_close(it);
        return NULL;
    }
    it->raw_clocks = options && options->raw_clocks;
    if (!(options && options->absolute)) {
        it->origin = sp_results_time_origin(r);
        it->origin_ns = sp_results_time_origin_ns(r);
    }
    return it;
}

/* The row at the iterator's (region, rank position), or NULL past the region's ranks. */
static const sp_model_row *current_row(const sp_event_iter *it, const sp_mpi_region *reg) {
    size_t nranks;
    const uint32_t *ranks = sp_filter_ranks(it->filter, &nranks);
    if (!ranks)
        return it->rank_pos < reg->num_entries ? &it->r->m.rows[reg->by_rank[it->rank_pos]] : NULL;
    return it->rank_pos < nranks ? sp_region_entry(reg, ranks[it->rank_pos]) : NULL;
}

static int ranks_left(const sp_event_iter *it, const sp_mpi_region *reg) {
    size_t nranks;
    const uint32_t *ranks = sp_filter_ranks(it->filter, &nranks);
    return it->rank_pos < (ranks ? nranks : reg->num_entries);
}

int sp_events_next(sp_event_iter *it, sp_event *out) {
    const sp_model *m = &it->r->m;
    while (it->region < it->num_regions) {
        const sp_mpi_region *reg = &it->r->regions[it->regions[it->region]];
        if (!ranks_left(it, reg)) {
            it->region++;
            it->rank_pos = 0;
            it->call = 0;
            continue;
        }
        const sp_model_row *row = current_row(it, reg);
        if (!row || it->call >= row->count) {
            it->rank_pos++;
            it->call = 0;
            continue;
        }
        size_t index = (size_t)(row - m->rows);
        if (it->call == 0 && sp_model_events(m, index, index + 1, &it->win, &it->err)) {
            it->failed = 1;
            return 0;
        }
        uint64_t e = row->offset + it->call - it->win.first;
        int64_t s = it->win.starts[e];
        if (it->raw_clocks) s -= sp_rank_clock_offset(m, row->rank, &it->offset_hint);
        int64_t end = sp_end_ns(s, it->win.durations[e]);
        out->name = m->region_names[row->region];
        out->rank = row->rank;
        out->thread = it->win.thread_ids ? it->win.thread_ids[e] : -1;
        out->call_index = it->call++;
        out->start = sp_seconds(s) - it->origin;
        out->end = sp_seconds(end) - it->origin;
        out->duration = out->end - out->start;
        out->start_ns = s - it->origin_ns;
        out->end_ns = end - it->origin_ns;
        out->duration_ns = it->win.durations[e];
        return 1;
    }
    return 0;
}

void sp_events_close(sp_event_iter *it) {
    if (!it) return;
    sp_filter_free(it->filter);
    free(it->regions);
    sp_event_window_free(&it->win);
    free(it);
}

sp_status sp_events_status(const sp_event_iter *it, sp_error *err) {
    if (!it->failed) return SP_OK;
    if (err) *err = it->err;
    return it->err.status;
}
