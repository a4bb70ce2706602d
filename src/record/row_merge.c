#include "record/row_merge.h"

#include <stdlib.h>

#include "record/clock.h"
#include "record/store.h"

/* One thread's calls of the row, read in recording order. */
typedef struct cursor {
    sp_thread *t;
    uint32_t chunk;
    size_t slot, used;
    int64_t thread; /* position in the list of threads */
} cursor;

struct sp_row_merge {
    cursor *cursors;
    uint32_t *heap; /* cursor indexes, a min-heap on (start ticks, thread) */
    size_t live;
    sp_region_t region;
    int give_back;
};

sp_row_merge *sp_row_merge_new(uint32_t max_threads) {
    sp_row_merge *m = calloc(1, sizeof *m);
    size_t n = max_threads ? max_threads : 1;
    if (m) m->cursors = malloc(n * sizeof *m->cursors);
    if (m) m->heap = malloc(n * sizeof *m->heap);
    if (m && m->cursors && m->heap) return m;
    sp_row_merge_free(m);
    return NULL;
}

void sp_row_merge_free(sp_row_merge *m) {
    if (!m) return;
    free(m->cursors);
    free(m->heap);
    free(m);
}

static void give_back(const sp_row_merge *m, const cursor *c) {
    if (m->give_back && c->used)
        sp_store_discard(c->t->rows[m->region].chunk[c->chunk], c->used * sizeof(sp_event_slot));
}

/* Moves c to its next completed call; 0 when it has none left. */
static int settle(const sp_row_merge *m, cursor *c) {
    const sp_row_chunks *row = &c->t->rows[m->region];
    for (;;) {
        if (c->slot < c->used) {
            if (row->chunk[c->chunk][c->slot].end) return 1;
            c->slot++;
            continue;
        }
        give_back(m, c);
        c->used = 0;
        if (c->chunk + 1 >= row->num_chunks) return 0;
        c->chunk++;
        c->slot = 0;
        c->used = sp_row_chunk_used(c->t, m->region, c->chunk);
    }
}

static const sp_event_slot *head(const sp_row_merge *m, const cursor *c) {
    return &c->t->rows[m->region].chunk[c->chunk][c->slot];
}

static int before(const sp_row_merge *m, uint32_t a, uint32_t b) {
    uint64_t x = head(m, &m->cursors[a])->start, y = head(m, &m->cursors[b])->start;
    return x != y ? x < y : m->cursors[a].thread < m->cursors[b].thread;
}

static void sift_down(sp_row_merge *m, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, s = i;
        if (l < m->live && before(m, m->heap[l], m->heap[s])) s = l;
        if (l + 1 < m->live && before(m, m->heap[l + 1], m->heap[s])) s = l + 1;
        if (s == i) return;
        uint32_t tmp = m->heap[i];
        m->heap[i] = m->heap[s];
        m->heap[s] = tmp;
        i = s;
    }
}

void sp_row_merge_start(sp_row_merge *m, sp_thread *const *threads, uint32_t n, sp_region_t region,
                        int give_back_chunks) {
    m->region = region;
    m->give_back = give_back_chunks;
    m->live = 0;
    for (uint32_t i = 0; i < n; i++) {
        sp_thread *t = threads[i];
        if (region >= t->num_cursors || t->rows[region].num_chunks == 0) continue;
        cursor *c = &m->cursors[m->live];
        *c = (cursor){t, 0, 0, sp_row_chunk_used(t, region, 0), (int64_t)i};
        if (settle(m, c)) {
            m->heap[m->live] = (uint32_t)m->live;
            m->live++;
        }
    }
    for (size_t i = m->live / 2; i-- > 0;)
        sift_down(m, i);
}

size_t sp_row_merge_next(sp_row_merge *m, int64_t *starts, int64_t *durations, int64_t *thread_ids,
                         size_t max) {
    size_t n = 0;
    while (n < max && m->live) {
        cursor *c = &m->cursors[m->heap[0]];
        const sp_event_slot *slot = head(m, c);
        int64_t start = sp_clock_to_ns(slot->start), end = sp_clock_to_ns(slot->end);
        starts[n] = start;
        durations[n] = end > start ? end - start : 0;
        if (thread_ids) thread_ids[n] = c->thread;
        n++;
        c->slot++;
        if (!settle(m, c)) m->heap[0] = m->heap[--m->live];
        if (m->live > 1) sift_down(m, 0);
    }
    return n;
}
