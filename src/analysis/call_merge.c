#include "analysis/call_merge.h"

#include <stdlib.h>
#include <string.h>

struct sp_merge_cursor {
    uint64_t base; /* first event of the row */
    uint64_t pos;  /* next call (index into perm or the row) */
    uint64_t count;
    uint32_t *perm; /* tree order of the row's calls, NULL when already in order */
    uint32_t row;
};

struct sp_merge_head {
    int64_t start, end;
    uint32_t cursor; /* also the tie-breaker: earlier rows first */
};

typedef struct sp_merge_cursor cursor;
typedef struct sp_merge_head head;

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

/* Calls ahead of a row's next one are fetched early: a rank's rows are
 * read as that many interleaved streams, more than the hardware follows. */
#define PREFETCH_AHEAD 16

static head cursor_head(const sp_call_merge *m, uint32_t id) {
    const cursor *c = &m->cursors[id];
    uint64_t e = cursor_event(c) - m->first;
    if (!c->perm && c->pos + PREFETCH_AHEAD < c->count) {
        __builtin_prefetch(&m->starts[e + PREFETCH_AHEAD]);
        __builtin_prefetch(&m->durations[e + PREFETCH_AHEAD]);
        if (m->thread_ids) __builtin_prefetch(&m->thread_ids[e + PREFETCH_AHEAD]);
    }
    int64_t s = m->starts[e];
    return (head){s, sp_end_ns(s, m->durations[e]), id};
}

/* Whole cache lines of their own: the visits run on another thread. */
static void *alloc_lines(size_t n, size_t size) {
    size_t bytes = (n ? n : 1) * size;
    bytes = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
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

sp_status sp_call_merge_init(sp_call_merge *m, const sp_results *r, const sp_event_window *win,
                             const uint32_t *rows, size_t n) {
    memset(m, 0, sizeof *m);
    m->starts = win->starts;
    m->durations = win->durations;
    m->thread_ids = win->thread_ids;
    m->first = win->first;
    m->cursors = alloc_lines(n, sizeof *m->cursors);
    m->heap = alloc_lines(n, sizeof *m->heap);
    if (!m->cursors || !m->heap) return SP_ERR_OUT_OF_MEMORY;
    m->num_cursors = n;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        cursor *c = &m->cursors[i];
        *c = (cursor){row->offset, 0, row->count, NULL, rows[i]};
        if (row->count == 0) continue;
        if (!r->rows[rows[i]].tree_sorted &&
            (row->count > UINT32_MAX || !(c->perm = row_permutation(win, row))))
            return SP_ERR_OUT_OF_MEMORY;
        m->num_calls += row->count;
        m->heap[m->heap_len++] = cursor_head(m, (uint32_t)i);
    }
    for (size_t i = m->heap_len / 2; i-- > 0;)
        sift_down(m->heap, m->heap_len, i);
    return SP_OK;
}

size_t sp_call_merge_next(sp_call_merge *m, sp_merged_call *out, size_t max) {
    const int64_t *threads = m->thread_ids;
    size_t k = 0;
    for (; k < max && m->heap_len; k++) {
        cursor *c = &m->cursors[m->heap[0].cursor];
        uint64_t e = cursor_event(c), at = e - m->first;
        out[k] = (sp_merged_call){m->heap[0].start,
                                  m->heap[0].end,
                                  e,
                                  threads && threads[at] >= 0 ? threads[at] : -1,
                                  c->row,
                                  m->durations[at] < 0};
        if (++c->pos < c->count)
            m->heap[0] = cursor_head(m, m->heap[0].cursor);
        else
            m->heap[0] = m->heap[--m->heap_len];
        sift_down(m->heap, m->heap_len, 0);
    }
    return k;
}

void sp_call_merge_free(sp_call_merge *m) {
    for (size_t i = 0; m->cursors && i < m->num_cursors; i++)
        free(m->cursors[i].perm);
    free(m->cursors);
    free(m->heap);
    memset(m, 0, sizeof *m);
}
