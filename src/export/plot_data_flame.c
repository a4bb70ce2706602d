/*
 * flame_data: one row per call of the selected ranks, as the Python
 * package's flame chart data lists them (its columns, then our `thread`):
 * ids, parent id, region, call path (" > "), source, depth, start and end
 * from the run's first call, inclusive and exclusive seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "export/call_walk.h"
#include "export/plot_data_rows.h"

typedef struct flame_call {
    int64_t call_id, parent_id, thread, start_ns, end_ns, child_ns;
    uint32_t region, depth;
    char *path;
} flame_call;

typedef struct flame_walk {
    flame_call *calls;
    size_t count, cap;
} flame_walk;

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    flame_walk *f = ctx;
    if (f->count == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 256;
        flame_call *grown = realloc(f->calls, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        f->calls = grown;
        f->cap = cap;
    }
    const char *above = parent ? f->calls[parent->user[0]].path : NULL;
    size_t n = (above ? strlen(above) + 3 : 0) + strlen(call->name) + 1;
    char *path = malloc(n);
    if (!path) return SP_ERR_OUT_OF_MEMORY;
    snprintf(path, n, "%s%s%s", above ? above : "", above ? " > " : "", call->name);
    f->calls[f->count] =
        (flame_call){call->call_id, call->parent_id, call->thread, call->start_ns, call->end_ns, 0,
                     call->region,  call->depth,     path};
    call->user[0] = f->count++;
    return SP_OK;
}

/* A call's time inside its children on its own thread is not its own (a forked
 * thread's calls stay on their thread: leave() gets no parent for them). */
static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    flame_walk *f = ctx;
    if (parent) f->calls[parent->user[0]].child_ns += call->end_ns - call->start_ns;
    return SP_OK;
}

static void write_calls(row_writer *w, const sp_plot_data *d, size_t run, uint32_t rank,
                        const flame_walk *f) {
    const sp_results *r = d->runs[run];
    int64_t first = sp_results_minimum_start_time_ns(r);
    for (size_t i = 0; i < f->count; i++) {
        const flame_call *c = &f->calls[i];
        const char *file = "", *text;
        int64_t line = -1;
        sp_mpi_region_source(sp_results_region_at(r, c->region), &file, &line, &text);
        sp_pd_begin_row(w);
        sp_pd_text(w, "file", d->labels[run], 1);
        sp_pd_integer(w, "rank", rank, 0);
        sp_pd_integer(w, "call_id", c->call_id, 0);
        if (c->parent_id >= 0)
            sp_pd_integer(w, "parent_call_id", c->parent_id, 0);
        else
            sp_pd_null(w, "parent_call_id");
        sp_pd_text(w, "region", sp_mpi_region_name(sp_results_region_at(r, c->region)), 0);
        sp_pd_text(w, "call_path", c->path, 0);
        sp_pd_text(w, "source_file", file ? file : "", 0);
        if (line >= 0)
            sp_pd_integer(w, "source_lineno", line, 0);
        else
            sp_pd_null(w, "source_lineno");
        sp_pd_integer(w, "depth", c->depth, 0);
        sp_pd_field_number(w, "start_seconds", (double)(c->start_ns - first) / 1e9);
        sp_pd_field_number(w, "end_seconds", (double)(c->end_ns - first) / 1e9);
        sp_pd_field_number(w, "inclusive_duration_seconds",
                           (double)(c->end_ns - c->start_ns) / 1e9);
        sp_pd_field_number(w, "exclusive_duration_seconds",
                           (double)(c->end_ns - c->start_ns - c->child_ns) / 1e9);
        sp_pd_integer(w, "thread", c->thread, 0);
        sp_pd_end_row(w);
    }
}

static void reset(flame_walk *f) {
    for (size_t i = 0; i < f->count; i++)
        free(f->calls[i].path);
    f->count = 0;
}

sp_status sp_pd_flame_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err) {
    const sp_results *r = d->runs[run];
    sp_status need = sp_pd_need_events(d, run, "flame_data", err);
    if (need != SP_OK) return need;
    sp_call_selection sel = {0};
    if (d->filter) sel.filter = *d->filter;
    sp_call_walker *walker = sp_call_walker_open(r, &sel, err);
    if (!walker) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    flame_walk f = {0};
    sp_walk_visitor visitor = {on_enter, on_leave, &f};
    sp_status st = SP_OK;
    for (size_t i = 0; i < sp_call_walker_num_ranks(walker) && st == SP_OK; i++) {
        uint32_t rank = sp_call_walker_rank(walker, i);
        st = sp_call_walker_run(walker, rank, SP_WALK_ALL_LANES, &visitor, err);
        if (st == SP_OK)
            write_calls(w, d, run, rank, &f);
        else if (st == SP_ERR_OUT_OF_MEMORY)
            sp_error_set(err, st, "out of memory");
        reset(&f);
    }
    free(f.calls);
    sp_call_walker_close(walker);
    return st;
}
