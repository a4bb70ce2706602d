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
};

typedef struct sp_merge_cursor cursor;
typedef struct sp_merge_head head;

/* An exhausted row's head: after every call (a real call starting at
 * INT64_MAX ends at -1 or later). */
static const head done_head = {INT64_MAX, INT64_MIN};

/* Tree order; slots are in row order, so the lower slot wins a tie. */
static int slot_before(const head *h, uint32_t a, uint32_t b) {
    if (h[a].start != h[b].start) return h[a].start < h[b].start;
    if (h[a].end != h[b].end) return h[a].end > h[b].end;
    return a < b;
}

/* The loser tree over the k slots: internal node i (1 <= i < k) has
 * children 2i and 2i+1, slot j sits at leaf k + j; tree[i] holds the loser
 * of the match at i and tree[0] the overall winner. A new head of the
 * winner is replayed up its path: one comparison per level, half of what a
 * binary heap's sift-down takes. */
static void replay(sp_call_merge *m, uint32_t slot) {
    const head *h = m->heads;
    uint32_t *tree = m->tree, winner = slot;
    for (size_t node = (m->num_slots + slot) / 2; node >= 1; node /= 2)
        if (slot_before(h, tree[node], winner)) {
            uint32_t t = tree[node];
            tree[node] = winner;
            winner = t;
        }
    tree[0] = winner;
}

static void build_tree(sp_call_merge *m, uint32_t *winners) {
    size_t k = m->num_slots;
    for (size_t i = k - 1; i >= 1; i--) {
        uint32_t a = 2 * i >= k ? (uint32_t)(2 * i - k) : winners[2 * i];
        uint32_t b = 2 * i + 1 >= k ? (uint32_t)(2 * i + 1 - k) : winners[2 * i + 1];
        int a_wins = slot_before(m->heads, a, b);
        winners[i] = a_wins ? a : b;
        m->tree[i] = a_wins ? b : a;
    }
    m->tree[0] = k > 1 ? winners[1] : 0;
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
    return (head){s, sp_end_ns(s, m->durations[e])};
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
    m->heads = alloc_lines(n, sizeof *m->heads);
    m->tree = alloc_lines(n, sizeof *m->tree);
    uint32_t *winners = malloc((n ? n : 1) * sizeof *winners);
    if (!m->cursors || !m->heads || !m->tree || !winners) {
        free(winners);
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        cursor *c = &m->cursors[m->num_slots];
        *c = (cursor){row->offset, 0, row->count, NULL, rows[i]};
        if (row->count == 0) continue;
        if (!r->rows[rows[i]].tree_sorted &&
            (row->count > UINT32_MAX || !(c->perm = row_permutation(win, row)))) {
            free(winners);
            return SP_ERR_OUT_OF_MEMORY;
        }
        m->num_calls += row->count;
        m->heads[m->num_slots] = cursor_head(m, (uint32_t)m->num_slots);
        m->num_slots++;
    }
    m->live = m->num_slots;
    if (m->num_slots) build_tree(m, winners);
    free(winners);
    return SP_OK;
}

size_t sp_call_merge_next(sp_call_merge *m, sp_merged_call *out, size_t max) {
    const int64_t *threads = m->thread_ids;
    size_t k = 0;
    for (; k < max && m->live; k++) {
        uint32_t slot = m->tree[0];
        cursor *c = &m->cursors[slot];
        uint64_t e = cursor_event(c), at = e - m->first;
        out[k] = (sp_merged_call){m->heads[slot].start,
                                  m->heads[slot].end,
                                  e,
                                  threads && threads[at] >= 0 ? threads[at] : -1,
                                  c->row,
                                  m->durations[at] < 0};
        if (++c->pos < c->count) {
            m->heads[slot] = cursor_head(m, slot);
        } else {
            m->heads[slot] = done_head;
            m->live--;
        }
        replay(m, slot);
    }
    return k;
}

void sp_call_merge_free(sp_call_merge *m) {
    for (size_t i = 0; m->cursors && i < m->num_slots; i++)
        free(m->cursors[i].perm);
    free(m->cursors);
    free(m->heads);
    free(m->tree);
    memset(m, 0, sizeof *m);
}
