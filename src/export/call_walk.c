#include "export/call_walk.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/call_tree.h"
#include "common/error.h"
#include "export/call_select.h"
#include "analysis/unavailable.h"

typedef struct lane_stack {
    sp_walk_call *calls;
    size_t len, cap;
    size_t emitted; /* calls[0..emitted) have entered the visitor (always a prefix) */
    /* calls[0]'s parent when it is another thread's call (calls[0].cross_lane) */
    size_t up_lane, up_pos;
} lane_stack;

struct sp_call_walker {
    const sp_results *r;
    sp_call_rule rule;
    int raw_clock;
    uint64_t selected;
    uint64_t *region_counts;
    int64_t max_duration, max_offset;
    sp_walk_lane *lanes; /* sorted by (rank, thread) */
    size_t num_lanes;
    uint32_t *ranks;
    size_t num_ranks;
    lane_stack *stacks;  /* one per lane */
    uint32_t *rows;      /* scratch: the rows of one rank */
    sp_event_window win; /* the calls of the rank walked (or of a survey batch) */
};

typedef struct run_ctx {
    sp_call_walker *w;
    const sp_walk_visitor *v;
    uint32_t rank;
    size_t only;
    int64_t offset; /* subtracted from aligned times (raw clock) */
    int64_t next_id;
    size_t last_lane;
    sp_status status;
    sp_error *err;
    const sp_event_window *win;
} run_ctx;

static int lane_before(uint32_t ra, int64_t ta, uint32_t rb, int64_t tb) {
    return ra != rb ? ra < rb : ta < tb;
}

static size_t find_lane(const sp_call_walker *w, uint32_t rank, int64_t thread) {
    size_t lo = 0, hi = w->num_lanes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const sp_walk_lane *l = &w->lanes[mid];
        if (l->rank == rank && l->thread == thread) return mid;
        if (lane_before(l->rank, l->thread, rank, thread))
            lo = mid + 1;
        else
            hi = mid;
    }
    return SP_WALK_ALL_LANES;
}

static int compare_lanes(const void *a, const void *b) {
    const sp_walk_lane *x = a, *y = b;
    if (x->rank == y->rank && x->thread == y->thread) return 0;
    return lane_before(x->rank, x->thread, y->rank, y->thread) ? -1 : 1;
}

static sp_status add_lane(sp_call_walker *w, size_t *cap, uint32_t rank, int64_t thread) {
    /* Rows of one rank are consecutive, so its lanes are at the end. */
    for (size_t j = w->num_lanes; j-- > 0 && w->lanes[j].rank == rank;)
        if (w->lanes[j].thread == thread) return SP_OK;
    if (w->num_lanes == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 16;
        sp_walk_lane *grown = realloc(w->lanes, grown_cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        w->lanes = grown;
        *cap = grown_cap;
    }
    w->lanes[w->num_lanes++] = (sp_walk_lane){rank, thread, "", -1, 0, NULL};
    return SP_OK;
}

static void name_lanes(sp_call_walker *w) {
    const sp_model *m = &w->r->m;
    for (size_t i = 0; i < m->num_threads; i++) {
        size_t k = find_lane(w, m->threads[i].rank, m->threads[i].index);
        if (k == SP_WALK_ALL_LANES) continue;
        w->lanes[k].name = m->threads[i].name;
        w->lanes[k].native_id = m->threads[i].native_id;
        w->lanes[k].info = &m->threads[i];
    }
    for (size_t i = 0; i < w->num_lanes; i++) {
        int alone = (i == 0 || w->lanes[i - 1].rank != w->lanes[i].rank) &&
                    (i + 1 == w->num_lanes || w->lanes[i + 1].rank != w->lanes[i].rank);
        w->lanes[i].only_lane = alone;
    }
}

/* The kept calls of row i (in w->win): counts per region, lanes, extremes. */
static sp_status survey_row(sp_call_walker *w, size_t i, size_t *cap, uint32_t *last_rank,
                            int64_t *last_thread) {
    const sp_model_row *row = &w->r->m.rows[i];
    const sp_event_window *win = &w->win;
    int64_t origin = sp_results_time_origin_ns(w->r);
    uint64_t n = 0;
    for (uint64_t e = row->offset; e < row->offset + row->count; e++) {
        if (!sp_rule_keeps(&w->rule, win, (uint32_t)i, e)) continue;
        n++;
        int64_t t = sp_window_thread(win, e), d = win->durations[e - win->first];
        if (d > w->max_duration) w->max_duration = d;
        int64_t off = sp_end_ns(win->starts[e - win->first], d) - origin;
        if (off > w->max_offset) w->max_offset = off;
        if (row->rank == *last_rank && t == *last_thread) continue;
        if (add_lane(w, cap, row->rank, t) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
        *last_rank = row->rank;
        *last_thread = t;
    }
    w->region_counts[row->region] += n;
    return SP_OK;
}

/* One pass over the kept calls, window by window: counts per region, lanes, ranks, extremes. */
static sp_status survey(sp_call_walker *w, sp_error *err) {
    const sp_model *m = &w->r->m;
    size_t cap = 0;
    int64_t last_thread = 0;
    uint32_t last_rank = UINT32_MAX;
    for (size_t a = 0, b; a < m->num_rows; a = b) {
        b = sp_event_batch_end(m, a);
        int any = 0;
        for (size_t i = a; i < b && !any; i++)
            any = w->rule.row_ok[i] && m->rows[i].count;
        if (!any) continue;
        sp_status st = sp_model_events(m, a, b, &w->win, err);
        for (size_t i = a; st == SP_OK && i < b; i++)
            if (w->rule.row_ok[i]) st = survey_row(w, i, &cap, &last_rank, &last_thread);
        if (st != SP_OK) return st;
    }
    if (w->num_lanes) qsort(w->lanes, w->num_lanes, sizeof *w->lanes, compare_lanes);
    w->ranks = malloc((w->num_lanes + 1) * sizeof *w->ranks);
    w->stacks = calloc(w->num_lanes + 1, sizeof *w->stacks);
    w->rows = malloc((m->num_regions + 1) * sizeof *w->rows);
    if (!w->ranks || !w->stacks || !w->rows) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < w->num_lanes; i++)
        if (!w->num_ranks || w->ranks[w->num_ranks - 1] != w->lanes[i].rank)
            w->ranks[w->num_ranks++] = w->lanes[i].rank;
    name_lanes(w);
    return SP_OK;
}

sp_call_walker *sp_call_walker_open(const sp_results *r, const sp_call_selection *selection,
                                    sp_error *err) {
    if (!sp_columnar(r)) {
        sp_unavailable(r, "trace exports", err);
        return NULL;
    }
    sp_call_walker *w = calloc(1, sizeof *w);
    if (!w) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    w->r = r;
    w->raw_clock = selection && selection->raw_clock;
    if (sp_rule_init(&w->rule, r, selection, &w->selected, err) != SP_OK) {
        sp_call_walker_close(w);
        return NULL;
    }
    w->region_counts = calloc(r->m.num_regions + 1, sizeof *w->region_counts);
    sp_status st = w->region_counts ? survey(w, err) : SP_ERR_OUT_OF_MEMORY;
    if (st != SP_OK) {
        if (st == SP_ERR_OUT_OF_MEMORY)
            sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory while selecting calls");
        sp_call_walker_close(w);
        return NULL;
    }
    return w;
}

void sp_call_walker_close(sp_call_walker *w) {
    if (!w) return;
    for (size_t i = 0; w->stacks && i < w->num_lanes; i++)
        free(w->stacks[i].calls);
    free(w->stacks);
    free(w->lanes);
    free(w->ranks);
    free(w->rows);
    free(w->region_counts);
    sp_event_window_free(&w->win);
    sp_rule_free(&w->rule);
    free(w);
}

size_t sp_call_walker_num_ranks(const sp_call_walker *w) {
    return w->num_ranks;
}

uint32_t sp_call_walker_rank(const sp_call_walker *w, size_t index) {
    return index < w->num_ranks ? w->ranks[index] : UINT32_MAX;
}

size_t sp_call_walker_num_lanes(const sp_call_walker *w) {
    return w->num_lanes;
}

const sp_walk_lane *sp_call_walker_lane(const sp_call_walker *w, size_t index) {
    return index < w->num_lanes ? &w->lanes[index] : NULL;
}

uint64_t sp_call_walker_selected(const sp_call_walker *w) {
    return w->selected;
}

const uint64_t *sp_call_walker_region_counts(const sp_call_walker *w) {
    return w->region_counts;
}

int64_t sp_call_walker_max_duration_ns(const sp_call_walker *w) {
    return w->max_duration;
}

int64_t sp_call_walker_max_offset_ns(const sp_call_walker *w) {
    return w->max_offset;
}

static int64_t rank_offset(const sp_model *m, uint32_t rank) {
    for (size_t i = 0; i < m->num_clock_offsets; i++)
        if (m->clock_offsets[i].rank == rank) return m->clock_offsets[i].offset_ns;
    return 0;
}

static size_t lane_of(run_ctx *c, int64_t thread) {
    if (c->last_lane < c->w->num_lanes) {
        const sp_walk_lane *l = &c->w->lanes[c->last_lane];
        if (l->rank == c->rank && l->thread == thread) return c->last_lane;
    }
    size_t k = find_lane(c->w, c->rank, thread);
    if (k != SP_WALK_ALL_LANES) c->last_lane = k;
    return k;
}

static sp_status push(lane_stack *s, const sp_walk_call *call) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        sp_walk_call *grown = realloc(s->calls, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        s->calls = grown;
        s->cap = cap;
    }
    s->calls[s->len++] = *call;
    return SP_OK;
}

static int emits(const run_ctx *c, size_t lane) {
    return c->only == SP_WALK_ALL_LANES || lane == c->only;
}

static sp_walk_call *stack_parent(const sp_call_walker *w, const lane_stack *s, size_t i) {
    if (i) return &s->calls[i - 1];
    if (!s->len || !s->calls[0].cross_lane) return NULL;
    return &w->stacks[s->up_lane].calls[s->up_pos];
}

static sp_walk_call *parent_of(const run_ctx *c, const lane_stack *s, size_t i) {
    return stack_parent(c->w, s, i);
}

const sp_walk_call *sp_call_walker_parent(const sp_call_walker *w, const sp_walk_call *call) {
    return stack_parent(w, &w->stacks[call->lane], call->pos);
}

/* Enters calls[emitted..upto) of a lane, after the other thread's ancestors
 * of its first call (when those are written too). */
static sp_status emit_prefix(run_ctx *c, size_t lane, size_t upto) {
    lane_stack *s = &c->w->stacks[lane];
    if (s->emitted == 0 && upto && s->calls[0].cross_lane && emits(c, s->up_lane)) {
        sp_status st = emit_prefix(c, s->up_lane, s->up_pos + 1);
        if (st != SP_OK) return st;
    }
    for (; s->emitted < upto; s->emitted++) {
        size_t i = s->emitted;
        sp_status st = c->v->enter(c->v->ctx, &s->calls[i], parent_of(c, s, i));
        if (st != SP_OK) return c->status = st;
    }
    return SP_OK;
}

/* Every lane's open calls are kept (another thread's call can be the parent);
 * only the emitted lanes reach the visitor. */
static sp_status on_enter(void *ctx, sp_tree_frame *f, sp_tree_frame *parent) {
    run_ctx *c = ctx;
    if (c->status != SP_OK) return c->status;
    const sp_model *m = &c->w->r->m;
    const sp_event_window *win = c->win;
    uint64_t e = f->event;
    int64_t id = c->next_id++;
    size_t lane = lane_of(c, sp_window_thread(win, e));
    if (lane == SP_WALK_ALL_LANES) return SP_OK;
    lane_stack *s = &c->w->stacks[lane];
    const sp_model_row *row = &m->rows[f->row];
    sp_walk_call call;
    const sp_walk_call *up = s->len ? &s->calls[s->len - 1] : NULL;
    call.cross_lane = 0;
    if (!up && parent && !sp_tree_same_lane(f, parent)) {
        size_t up_lane = lane_of(c, parent->lane);
        if (up_lane != SP_WALK_ALL_LANES && parent->pos < c->w->stacks[up_lane].len) {
            s->up_lane = up_lane;
            s->up_pos = parent->pos;
            up = &c->w->stacks[up_lane].calls[parent->pos];
            call.cross_lane = 1;
        }
    }
    f->pos = s->len;
    call.pos = s->len;
    call.region = row->region;
    call.name = m->region_names[row->region];
    call.rank = c->rank;
    call.thread = sp_window_thread(win, e);
    call.lane = lane;
    call.row = f->row;
    call.event = e;
    call.call_index = e - row->offset;
    call.start_ns = f->start - c->offset;
    call.end_ns = f->end - c->offset;
    call.depth = up ? up->depth + 1 : 0;
    call.call_id = win->call_ids ? win->call_ids[e - win->first] : id;
    call.parent_id = win->parent_ids ? win->parent_ids[e - win->first] : up ? up->call_id : -1;
    call.selected = sp_rule_keeps(&c->w->rule, win, f->row, e);
    call.user[0] = call.user[1] = 0;
    if (push(s, &call) != SP_OK)
        return sp_error_set(c->err, SP_ERR_OUT_OF_MEMORY, "out of memory while walking calls");
    if (!call.selected || !emits(c, lane)) return SP_OK;
    return emit_prefix(c, lane, s->len);
}

static void on_leave(void *ctx, const sp_tree_frame *f) {
    run_ctx *c = ctx;
    size_t lane = lane_of(c, sp_window_thread(c->win, f->event));
    if (lane == SP_WALK_ALL_LANES) return;
    lane_stack *s = &c->w->stacks[lane];
    if (!s->len) return;
    size_t top = s->len - 1;
    if (top < s->emitted) {
        s->emitted = top;
        /* another thread's call may have left already, and does not lose this time */
        if (c->status == SP_OK && c->v->leave)
            c->status = c->v->leave(c->v->ctx, &s->calls[top], top ? &s->calls[top - 1] : NULL);
    }
    s->len = top;
}

sp_status sp_call_walker_run(sp_call_walker *w, uint32_t rank, size_t lane,
                             const sp_walk_visitor *visitor, sp_error *err) {
    const sp_results *r = w->r;
    size_t n = sp_rank_rows(r, rank, r->start_order, r->m.num_regions, w->rows);
    run_ctx c = {w, visitor, rank, lane, 0, 0, 0, SP_OK, err, &w->win};
    if (w->raw_clock) c.offset = rank_offset(&r->m, rank);
    for (size_t i = 0; i < w->num_lanes; i++)
        w->stacks[i].len = w->stacks[i].emitted = 0;
    sp_tree_visitor tv = {on_enter, on_leave, &c};
    sp_status st = sp_rank_events(r, w->rows, n, &w->win, err);
    if (st == SP_OK) st = sp_tree_walk_window(r, &w->win, w->rows, n, &tv, err);
    if (st == SP_OK) st = c.status;
    return st;
}
