#include "analysis/call_tree.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/call_parent.h"
#include "analysis/lanes.h"
#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "common/error.h"
#include "analysis/region_entry.h"

typedef struct cursor {
    uint64_t base; /* first event of the row */
    uint64_t pos;  /* next call (index into perm or the row) */
    uint64_t count;
    uint32_t *perm; /* tree order of the row's calls, NULL when already in order */
    uint32_t row;
} cursor;

typedef struct head {
    int64_t start, end;
    uint32_t cursor; /* also the tie-breaker: earlier rows first */
} head;

typedef struct walk {
    const sp_results *r;
    const sp_event_window *win; /* holds the calls of every row walked */
    cursor *cursors;
    head *heap;
    size_t heap_len;
    sp_lanes lanes;
    uint32_t rank;
    sp_parent_rule parents; /* who a call without an open call on its lane belongs to */
} walk;

static int head_before(const head *a, const head *b) {
    if (a->start != b->start) return a->start < b->start;
    if (a->end != b->end) return a->end > b->end;
    return a->cursor < b->cursor;
}

static void sift_down(head *h, size_t n, size_t i) {
    head x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && head_before(&h[c + 1], &h[c])) c++;
        if (!head_before(&h[c], &x)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static uint64_t cursor_event(const cursor *c) {
    return c->base + (c->perm ? c->perm[c->pos] : c->pos);
}

static head cursor_head(const walk *w, uint32_t id) {
    const cursor *c = &w->cursors[id];
    uint64_t e = cursor_event(c) - w->win->first;
    int64_t s = w->win->starts[e];
    return (head){s, sp_end_ns(s, w->win->durations[e]), id};
}

typedef struct perm_ctx {
    const int64_t *starts, *durations;
} perm_ctx;

static int compare_tree_order(const void *pa, const void *pb, void *arg) {
    const perm_ctx *c = arg;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int64_t sa = c->starts[a], sb = c->starts[b];
    if (sa != sb) return sa < sb ? -1 : 1;
    int64_t ea = sp_end_ns(sa, c->durations[a]), eb = sp_end_ns(sb, c->durations[b]);
    if (ea != eb) return ea > eb ? -1 : 1;
    return (a > b) - (a < b);
}

/* Tree order for a row whose calls are not already in it (e.g. recursion recorded at exit). */
static uint32_t *row_permutation(const sp_event_window *win, const sp_model_row *row) {
    uint32_t *perm = malloc(row->count * sizeof *perm);
    if (!perm) return NULL;
    for (uint64_t i = 0; i < row->count; i++)
        perm[i] = (uint32_t)i;
    perm_ctx c = {win->starts + (row->offset - win->first),
                  win->durations + (row->offset - win->first)};
    qsort_r(perm, row->count, sizeof *perm, compare_tree_order, &c);
    return perm;
}

static sp_status walk_init(walk *w, const sp_results *r, const sp_event_window *win,
                           const uint32_t *rows, size_t n) {
    memset(w, 0, sizeof *w);
    w->r = r;
    w->win = win;
    w->cursors = calloc(n ? n : 1, sizeof *w->cursors);
    w->heap = malloc((n ? n : 1) * sizeof *w->heap);
    if (!w->cursors || !w->heap || sp_lanes_init(&w->lanes) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        cursor *c = &w->cursors[i];
        *c = (cursor){row->offset, 0, row->count, NULL, rows[i]};
        if (row->count == 0) continue;
        if (!r->rows[rows[i]].tree_sorted &&
            (row->count > UINT32_MAX || !(c->perm = row_permutation(win, row))))
            return SP_ERR_OUT_OF_MEMORY;
        w->heap[w->heap_len++] = cursor_head(w, (uint32_t)i);
    }
    if (n) w->rank = r->m.rows[rows[0]].rank;
    sp_parent_rule_init(&w->parents, &r->m, w->rank);
    for (size_t i = w->heap_len / 2; i-- > 0;)
        sift_down(w->heap, w->heap_len, i);
    return SP_OK;
}

static void walk_free(walk *w, size_t n) {
    for (size_t i = 0; w->cursors && i < n; i++)
        free(w->cursors[i].perm);
    free(w->cursors);
    free(w->heap);
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
    const int64_t *threads = w->win->thread_ids;
    uint64_t at = f->event - w->win->first;
    int64_t lane_id = threads && threads[at] >= 0 ? threads[at] : -1;
    f->lane = lane_id;
    sp_stack *stack = sp_lanes_get(&w->lanes, lane_id);
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

static sp_status walk_run(walk *w, const sp_tree_visitor *v, sp_error *err) {
    while (w->heap_len) {
        cursor *c = &w->cursors[w->heap[0].cursor];
        uint64_t e = cursor_event(c);
        if (w->win->durations[e - w->win->first] < 0)
            return sp_error_set(err, SP_ERR_NESTING, "a recorded call ends before it starts");
        sp_tree_frame f = {w->heap[0].start, w->heap[0].end, e, c->row, -1, 0, 0, 0, 0, 0};
        sp_status st = visit(w, &f, v, err);
        if (st != SP_OK) return st;
        if (++c->pos < c->count)
            w->heap[0] = cursor_head(w, w->heap[0].cursor);
        else
            w->heap[0] = w->heap[--w->heap_len];
        sift_down(w->heap, w->heap_len, 0);
    }
    if (v->leave) sp_lanes_drain(&w->lanes, v->leave, v->ctx);
    return SP_OK;
}

sp_status sp_tree_walk_window(const sp_results *r, const sp_event_window *win, const uint32_t *rows,
                              size_t n, const sp_tree_visitor *visitor, sp_error *err) {
    walk w;
    sp_status st = walk_init(&w, r, win, rows, n);
    if (st != SP_OK)
        sp_error_set(err, st, "out of memory while rebuilding the call tree");
    else
        st = walk_run(&w, visitor, err);
    walk_free(&w, n);
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
