#include "analysis/call_tree.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/call_merge.h"
#include "analysis/call_parent.h"
#include "analysis/lanes.h"
#include "analysis/merge_pipe.h"
#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "common/error.h"
#include "analysis/region_entry.h"

typedef struct walk {
    const sp_results *r;
    sp_call_merge merge;
    sp_lanes lanes;
    uint32_t rank;
    sp_parent_rule parents; /* who a call without an open call on its lane belongs to */
} walk;

static sp_status walk_init(walk *w, const sp_results *r, const sp_event_window *win,
                           const uint32_t *rows, size_t n) {
    memset(w, 0, sizeof *w);
    w->r = r;
    if (sp_call_merge_init(&w->merge, r, win, rows, n) != SP_OK ||
        sp_lanes_init(&w->lanes) != SP_OK)
        return SP_ERR_OUT_OF_MEMORY;
    if (n) w->rank = r->m.rows[rows[0]].rank;
    sp_parent_rule_init(&w->parents, &r->m, w->rank);
    return SP_OK;
}

static void walk_free(walk *w) {
    sp_call_merge_free(&w->merge);
    sp_lanes_free(&w->lanes);
}

static void append_label(sp_textbuf *b, const sp_results *r, const sp_tree_frame *f) {
    const sp_model_row *row = &r->m.rows[f->row];
    sp_py_str_repr(b, r->m.region_names[row->region]);
    sp_textbuf_printf(b, " call %" PRIu64 " [%" PRId64 ", %" PRId64 "] ns", f->event - row->offset,
                      f->start, f->end);
}

static sp_status nesting_error(const sp_results *r, const sp_tree_frame *child,
                               const sp_tree_frame *parent, sp_error *err) {
    sp_textbuf b = {0};
    if (r->m.path) sp_textbuf_printf(&b, "%s: ", r->m.path);
    sp_textbuf_printf(&b, "recorded calls are not properly nested on rank %" PRIu32,
                      r->m.rows[child->row].rank);
    if (child->lane >= 0) sp_textbuf_printf(&b, ", thread %" PRId64, child->lane);
    sp_textbuf_append(&b, ": ");
    append_label(&b, r, child);
    sp_textbuf_append(&b, " starts inside ");
    append_label(&b, r, parent);
    sp_textbuf_append(&b, " but ends after it. Regions must nest completely or not overlap at all"
                          " - check for a missing or misordered sp_end / __exit__.");
    const char *text = sp_textbuf_str(&b);
    sp_error_set(err, SP_ERR_NESTING, "%s", text ? text : "recorded calls are not properly nested");
    sp_textbuf_free(&b);
    return SP_ERR_NESTING;
}

/* Open at time s: s is before p's end, or p is zero-length at exactly s. */
static int still_open(const sp_tree_frame *p, int64_t s) {
    return s < p->end || (p->start == p->end && p->end == s);
}

static sp_status visit(walk *w, sp_tree_frame *f, const sp_tree_visitor *v, sp_error *err) {
    sp_stack *stack = sp_lanes_get(&w->lanes, f->lane);
    if (!stack) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    while (stack->len && !still_open(&stack->frames[stack->len - 1], f->start)) {
        stack->len--;
        if (v->leave) v->leave(v->ctx, &stack->frames[stack->len]);
    }
    sp_tree_frame *parent = sp_call_parent(&w->parents, &w->lanes, f, &stack);
    if (!stack) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    if (sp_tree_same_lane(f, parent) && f->end > parent->end)
        return nesting_error(w->r, f, parent, err);
    sp_status st = v->enter(v->ctx, f, parent);
    if (st != SP_OK) return st;
    if (sp_stack_push(stack, f) != SP_OK)
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    return SP_OK;
}

static sp_status visit_all(walk *w, sp_merge_pipe *pipe, const sp_tree_visitor *v, sp_error *err) {
    const sp_merged_call *calls;
    size_t n;
    while ((n = sp_merge_pipe_next(pipe, &calls))) {
        for (size_t i = 0; i < n; i++) {
            const sp_merged_call *c = &calls[i];
            if (c->ends_before_start)
                return sp_error_set(err, SP_ERR_NESTING, "a recorded call ends before it starts");
            sp_tree_frame f = {c->start, c->end, c->event, c->row, c->lane, 0, 0, 0, 0, 0};
            sp_status st = visit(w, &f, v, err);
            if (st != SP_OK) return st;
        }
    }
    return SP_OK;
}

static sp_status walk_run(walk *w, const sp_tree_visitor *v, sp_error *err) {
    sp_merge_pipe pipe;
    /* the model's own columns: the whole read, where memory is not counted in KB */
    int whole = w->r->m.durations && w->merge.durations == w->r->m.durations;
    if (sp_merge_pipe_open(&pipe, &w->merge,
                           whole ? SP_MERGE_PIPE_BATCH_WHOLE : SP_MERGE_PIPE_BATCH) != SP_OK)
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_status st = visit_all(w, &pipe, v, err);
    sp_merge_pipe_close(&pipe);
    if (st == SP_OK && v->leave) sp_lanes_drain(&w->lanes, v->leave, v->ctx);
    return st;
}

sp_status sp_tree_walk_window(const sp_results *r, const sp_event_window *win, const uint32_t *rows,
                              size_t n, const sp_tree_visitor *visitor, sp_error *err) {
    walk w;
    sp_status st = walk_init(&w, r, win, rows, n);
    if (st != SP_OK)
        sp_error_set(err, st, "out of memory while rebuilding the call tree");
    else
        st = walk_run(&w, visitor, err);
    walk_free(&w);
    return st;
}

sp_status sp_rank_events(const sp_results *r, const uint32_t *rows, size_t n, sp_event_window *win,
                         sp_error *err) {
    if (!n) {
        sp_event_window_free(win); /* no calls to look at */
        return SP_OK;
    }
    size_t a = rows[0], b = rows[0];
    for (size_t i = 1; i < n; i++) {
        if (rows[i] < a) a = rows[i];
        if (rows[i] > b) b = rows[i];
    }
    return sp_model_events(&r->m, a, b + 1, win, err);
}

sp_status sp_tree_walk(const sp_results *r, const uint32_t *rows, size_t n,
                       const sp_tree_visitor *visitor, sp_error *err) {
    sp_event_window win = SP_EVENT_WINDOW_INIT;
    sp_status st = sp_rank_events(r, rows, n, &win, err);
    if (st == SP_OK) st = sp_tree_walk_window(r, &win, rows, n, visitor, err);
    sp_event_window_free(&win);
    return st;
}

size_t sp_rank_rows(const sp_results *r, uint32_t rank, const uint32_t *regions, size_t num_regions,
                    uint32_t *out) {
    size_t n = 0;
    for (size_t i = 0; i < num_regions; i++) {
        int found;
        uint32_t k = sp_region_entry_index(&r->regions[regions[i]], rank, &found);
        if (found) out[n++] = r->regions[regions[i]].by_rank[k];
    }
    return n;
}
