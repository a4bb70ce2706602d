/*
 * Aggregate mode's recording side (record/aggregate.h): per-thread call-path
 * nodes, found from the enclosing call's node, and the lazy fold of
 * completed calls into them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/aggregate.h"
#include "record/clock.h"
#include "record/registry.h"

#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LIKELY(x)   __builtin_expect(!!(x), 1)

int sp_agg_on;

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static sp_agg_thread *list_head;
/* Bumped when the states are freed: a thread's cached pointer is stale when
 * its generation differs (compared before the pointer is used). */
static uint64_t generation = 1;
static uint64_t rate_q32 = (uint64_t)1 << 32;
static __thread sp_agg_thread *current __attribute__((tls_model("initial-exec")));
static __thread uint64_t current_generation __attribute__((tls_model("initial-exec")));
/* Where a call goes when this thread has no state at all (out of memory). */
static __thread sp_event_slot stateless_slot;

static void out_of_memory_once(void) {
    static int reported;
    if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "scope-profiler: out of memory: some calls are not aggregated; the calls "
                        "aggregated so far are kept\n");
}

static void free_thread(sp_agg_thread *a) {
    for (uint32_t i = 0; i < a->num_nodes; i++)
        sp_hist_free(&a->nodes[i].hist);
    free(a->nodes);
    free(a->keys);
    free(a->values);
    free(a->scratch);
    for (uint32_t i = 0; i < a->num_retired; i++)
        free(a->retired[i]);
    free(a->anchors);
    free(a->origin);
    free(a);
}

void sp_agg_reset_all(void) {
    pthread_mutex_lock(&list_lock);
    __atomic_store_n(&sp_agg_on, 0, __ATOMIC_RELAXED);
    while (list_head) {
        sp_agg_thread *next = list_head->next;
        free_thread(list_head);
        list_head = next;
    }
    __atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&list_lock);
}

/* SCOPE_PROFILER_JOURNAL=1 (or on, true, yes), as the store reads it. */
static int journal_forced_by_environment(void) {
    const char *v = getenv("SCOPE_PROFILER_JOURNAL");
    return v && (!strcmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "true") ||
                 !strcasecmp(v, "yes"));
}

void sp_agg_forget_after_fork(void) {
    /* Another thread may have held the list's lock at fork() (it does not
     * exist in the child): a fresh one. The states are freed by the child's
     * next sp_setup. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&list_lock, &fresh, sizeof fresh);
    __atomic_store_n(&sp_agg_on, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&generation, generation + 1, __ATOMIC_RELAXED);
}

void sp_agg_session_start(const sp_config *cfg) {
    if (cfg->journal == SP_JOURNAL_ON || journal_forced_by_environment())
        fprintf(stderr, "scope-profiler: aggregate mode keeps no journal (the journal asked for "
                        "is not made): a killed run leaves nothing to recover\n");
    sp_agg_reset_all();
    /* Histograms need nanoseconds while recording; the TSC's rate is known
     * exactly only at finalize, so a millisecond now gives it within ~1e-5. */
    rate_q32 = sp_clock_early_rate_q32(1000000);
    __atomic_store_n(&sp_agg_on, 1, __ATOMIC_RELAXED);
}

sp_agg_thread *sp_agg_threads(void) {
    return list_head;
}

static void init_node(sp_agg_node *n, uint32_t parent, sp_region_t region) {
    memset(n, 0, sizeof *n);
    n->region = region;
    n->parent = parent;
    n->next_hint = SP_AGG_NONE;
}

static sp_agg_thread *attach(sp_thread *t) {
    sp_agg_thread *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->thread = t;
    a->node_capacity = 16;
    a->nodes = malloc(a->node_capacity * sizeof *a->nodes);
    a->table_capacity = 32;
    a->keys = calloc(a->table_capacity, sizeof *a->keys);
    a->values = calloc(a->table_capacity, sizeof *a->values);
    if (!a->nodes || !a->keys || !a->values) {
        free(a->nodes);
        free(a->keys);
        free(a->values);
        free(a);
        return NULL;
    }
    init_node(&a->nodes[SP_AGG_ROOT], SP_AGG_NONE, SP_REGION_NONE);
    a->num_nodes = 1;
    pthread_mutex_lock(&list_lock);
    a->next = list_head;
    list_head = a;
    current_generation = generation;
    pthread_mutex_unlock(&list_lock);
    current = a;
    return a;
}

/* Room for depth `d`; the open frames' slots move with the scratch array. */
static int grow_scratch(sp_agg_thread *a, sp_thread *t, uint32_t d) {
    uint32_t capacity = a->scratch_capacity ? a->scratch_capacity * 2 : 16;
    while (capacity <= d)
        capacity *= 2;
    sp_agg_scratch *grown = malloc(capacity * sizeof *grown);
    if (!grown) return 0;
    if (a->scratch_capacity) memcpy(grown, a->scratch, a->scratch_capacity * sizeof *grown);
    for (uint32_t i = a->scratch_capacity; i < capacity; i++) {
        grown[i].slot.start = grown[i].slot.end = 0;
        grown[i].node = SP_AGG_NONE;
    }
    for (uint32_t i = 0; i < sp_thread_depth(t) && i < a->scratch_capacity; i++)
        if (t->stack[i].slot == &a->scratch[i].slot) t->stack[i].slot = &grown[i].slot;
    if (a->scratch) a->retired[a->num_retired++] = a->scratch; /* doubling: < 32 times */
    __atomic_store_n(&a->scratch, grown, __ATOMIC_RELEASE);
    a->scratch_capacity = capacity;
    return 1;
}

static uint32_t table_slot(uint64_t key, uint32_t capacity) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

static int grow_table(sp_agg_thread *a) {
    uint32_t capacity = a->table_capacity * 2;
    uint64_t *keys = calloc(capacity, sizeof *keys);
    uint32_t *values = calloc(capacity, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return 0;
    }
    for (uint32_t i = 0; i < a->table_capacity; i++) {
        if (!a->keys[i]) continue;
        uint32_t s = table_slot(a->keys[i], capacity);
        while (keys[s])
            s = (s + 1) & (capacity - 1);
        keys[s] = a->keys[i];
        values[s] = a->values[i];
    }
    free(a->keys);
    free(a->values);
    a->keys = keys;
    a->values = values;
    a->table_capacity = capacity;
    return 1;
}

/* The node of `region` under `parent`, made on first use; SP_AGG_NONE when
 * out of memory or the handle is not a region. */
static uint32_t find_or_add(sp_agg_thread *a, uint32_t parent, sp_region_t region) {
    uint64_t key = (uint64_t)parent << 32 | region; /* region >= 1: never 0 */
    uint32_t mask = a->table_capacity - 1;
    uint32_t s = table_slot(key, a->table_capacity);
    for (; a->keys[s]; s = (s + 1) & mask)
        if (a->keys[s] == key) return a->values[s];
    if (region > sp_registry_count()) return SP_AGG_NONE;
    if (a->num_nodes == a->node_capacity) {
        sp_agg_node *grown = realloc(a->nodes, 2 * (size_t)a->node_capacity * sizeof *grown);
        if (!grown) return SP_AGG_NONE;
        a->nodes = grown;
        a->node_capacity *= 2;
    }
    if ((a->table_used + 1) * 2 > a->table_capacity) {
        if (!grow_table(a)) return SP_AGG_NONE;
        mask = a->table_capacity - 1;
        for (s = table_slot(key, a->table_capacity); a->keys[s]; s = (s + 1) & mask) {
        }
    }
    uint32_t node = a->num_nodes++;
    init_node(&a->nodes[node], parent, region);
    a->keys[s] = key;
    a->values[s] = node;
    a->table_used++;
    return node;
}

/* `prev`, the last call at this depth, predicts the next: the same path
 * again, or the sibling that followed it last time; SP_AGG_NONE when it
 * predicts nothing. */
static inline __attribute__((always_inline)) uint32_t
predicted_child(const sp_agg_thread *a, uint32_t parent, sp_region_t region, uint32_t prev) {
    if (prev == SP_AGG_NONE || a->nodes[prev].parent != parent) return SP_AGG_NONE;
    if (a->nodes[prev].region == region) return prev;
    uint32_t hint = a->nodes[prev].next_hint;
    if (hint != SP_AGG_NONE && a->nodes[hint].region == region && a->nodes[hint].parent == parent)
        return hint;
    return SP_AGG_NONE;
}

/* The prediction, else the table (and the prediction learns the sibling). */
static uint32_t child_of(sp_agg_thread *a, uint32_t parent, sp_region_t region, uint32_t prev) {
    uint32_t node = predicted_child(a, parent, region, prev);
    if (node != SP_AGG_NONE) return node;
    node = find_or_add(a, parent, region);
    if (prev != SP_AGG_NONE && a->nodes[prev].parent == parent) a->nodes[prev].next_hint = node;
    return node;
}

/* Opens the call on the thread's stack with its start time. */
static inline __attribute__((always_inline)) void push_frame(sp_thread *t, sp_event_slot *slot,
                                                             sp_region_t region) {
    sp_frame *frame = t->top++;
    frame->slot = slot;
    frame->chunk = &t->unchecked_chunk; /* no journal in aggregate mode */
    frame->region = region;
    slot->end = 0;
    slot->start = sp_clock_ticks();
}

int64_t sp_agg_provisional_ns(uint64_t ticks) {
    if (__builtin_expect(ticks >> 32 == 0 && rate_q32 >> 32 == 0, 1)) /* TSC, under 2^32 ticks */
        return (int64_t)((ticks * rate_q32 + ((uint64_t)1 << 31)) >> 32);
    if (rate_q32 == (uint64_t)1 << 32) return (int64_t)ticks; /* CLOCK_MONOTONIC */
    return (int64_t)(((unsigned __int128)ticks * rate_q32 + ((uint64_t)1 << 31)) >> 32);
}

static inline __attribute__((always_inline)) void fold(sp_agg_thread *a, const sp_agg_scratch *s) {
    sp_agg_node *n = &a->nodes[s->node];
    uint64_t start = s->slot.start, end = s->slot.end;
    uint64_t d = end > start ? end - start : 0; /* cores' counters a tick apart: 0 */
    if (n->count == 0) {
        n->first = n->min = n->max = d;
        n->start_min = start;
    } else {
        if (d < n->min) n->min = d;
        if (d > n->max) n->max = d;
    }
    n->count++;
    n->total += d;
    n->sumsq += (unsigned __int128)d * d;
    n->last = d; /* a path's calls never overlap: the last to start ends last */
    n->start_last = start;
    /* The histogram's bucket only: its count, minimum and maximum follow from
     * the node's at finalize (the conversion keeps order). */
    sp_hist *h = &n->hist;
    uint32_t b = sp_hist_bucket(sp_agg_provisional_ns(d));
    if (__builtin_expect(b - h->lo < h->hi - h->lo, 1)) {
        h->counts[b - h->lo]++;
    } else if (sp_hist_add_bucket(h, b, 1) != SP_OK) {
        n->hist_failed = 1;
    }
}

void sp_agg_fold(sp_agg_thread *a, sp_agg_scratch *s) {
    fold(a, s);
    s->slot.end = 0;
}

static int origin_current(const sp_agg_origin *o) {
    return o->thread && o->generation == __atomic_load_n(&generation, __ATOMIC_RELAXED);
}

void sp_agg_origin_take(sp_agg_origin *o) {
    o->thread = NULL;
    sp_thread *t = sp_current_thread;
    sp_agg_thread *a = current;
    if (!__atomic_load_n(&sp_agg_on, __ATOMIC_RELAXED) || !t || !a ||
        current_generation != __atomic_load_n(&generation, __ATOMIC_RELAXED))
        return;
    o->levels = 0;
    o->base = a->top;
    for (uint32_t d = sp_thread_depth(t); d-- > 0 && o->levels < SP_AGG_ORIGIN_LEVELS;) {
        if (d >= a->scratch_capacity || a->scratch[d].node == SP_AGG_NONE) continue;
        o->depth[o->levels] = d;
        o->node[o->levels] = a->scratch[d].node;
        o->start[o->levels++] = a->scratch[d].slot.start;
    }
    if (o->levels || o->base != SP_AGG_ROOT) {
        o->thread = a;
        o->generation = current_generation;
    }
}

const sp_agg_anchor *sp_agg_anchor_of(const sp_agg_thread *a, uint32_t node) {
    for (uint32_t i = 0; i < a->num_anchors; i++)
        if (a->anchors[i].node == node) return &a->anchors[i];
    return NULL;
}

/* The anchor node for (from, from_node), made on first use; SP_AGG_ROOT when
 * out of memory (the calls stay top-level). */
static uint32_t anchor_node(sp_agg_thread *a, const sp_agg_thread *from, uint32_t from_node) {
    for (uint32_t i = 0; i < a->num_anchors; i++)
        if (a->anchors[i].from == from && a->anchors[i].from_node == from_node)
            return a->anchors[i].node;
    if (a->num_anchors == a->anchor_capacity) {
        uint32_t capacity = a->anchor_capacity ? 2 * a->anchor_capacity : 4;
        sp_agg_anchor *grown = realloc(a->anchors, capacity * sizeof *grown);
        if (!grown) return SP_AGG_ROOT;
        a->anchors = grown;
        a->anchor_capacity = capacity;
    }
    if (a->num_nodes == a->node_capacity) {
        sp_agg_node *grown = realloc(a->nodes, 2 * (size_t)a->node_capacity * sizeof *grown);
        if (!grown) return SP_AGG_ROOT;
        a->nodes = grown;
        a->node_capacity *= 2;
    }
    uint32_t node = a->num_nodes++;
    init_node(&a->nodes[node], SP_AGG_ROOT, SP_REGION_NONE);
    a->anchors[a->num_anchors++] = (sp_agg_anchor){from, from_node, node};
    return node;
}

/* Whether the origin's call at `level` is still open on the forking thread:
 * its slot still holds that start and no end. The forking thread writes the
 * slot meanwhile (a relaxed read: at worst a call that just ended still
 * looks open); an outgrown scratch array is kept, so the read stays in
 * memory the thread owns. */
static int still_open(const sp_agg_origin *o, uint32_t level) {
    const sp_agg_scratch *s = __atomic_load_n(&o->thread->scratch, __ATOMIC_ACQUIRE);
    const sp_event_slot *slot = &s[o->depth[level]].slot;
    return __atomic_load_n(&slot->start, __ATOMIC_RELAXED) == o->start[level] &&
           __atomic_load_n(&slot->end, __ATOMIC_RELAXED) == 0;
}

/* The parent of a forked thread's top-level call: the anchor of the
 * innermost origin call still open (the one chosen last time while it is). */
static uint32_t top_parent(sp_agg_thread *a) {
    const sp_agg_origin *o = a->origin;
    if (a->top_level < o->levels && still_open(o, a->top_level)) return a->top;
    uint32_t level = 0;
    while (level < o->levels && !still_open(o, level))
        level++;
    uint32_t node = level < o->levels ? o->node[level] : o->base;
    a->top_level = level;
    a->top = node == SP_AGG_ROOT ? SP_AGG_ROOT : anchor_node(a, o->thread, node);
    if (node != SP_AGG_ROOT && a->top == SP_AGG_ROOT) out_of_memory_once();
    return a->top;
}

void sp_agg_origin_enter(sp_thread *t, const sp_agg_origin *o) {
    if (!__atomic_load_n(&sp_agg_on, __ATOMIC_RELAXED)) return;
    sp_agg_thread *a = current;
    if (!a || current_generation != __atomic_load_n(&generation, __ATOMIC_RELAXED)) a = attach(t);
    if (!a || t->top != t->stack) return; /* calls open: they keep their own parents */
    if (!origin_current(o) || o->thread == a) {
        free(a->origin);
        a->origin = NULL;
        a->top = SP_AGG_ROOT;
        return;
    }
    if (!a->origin && !(a->origin = malloc(sizeof *a->origin))) {
        out_of_memory_once();
        return;
    }
    *a->origin = *o;
    a->top_level = SP_AGG_ORIGIN_LEVELS; /* chosen at the next top-level call */
}

/* The usual begin, kept lean (no frame, few registers): the thread's state
 * is current, the depth has its scratch slot and the stack its room, no fork
 * origin decides the parent, and the call repeats the path of the last call
 * at this depth or takes the sibling that followed it last time. Returns 0,
 * having changed nothing, when the full path below must decide. */
static inline __attribute__((always_inline)) int begin_predicted(sp_thread *t, sp_region_t region) {
    sp_agg_thread *a = current;
    if (UNLIKELY(!a || current_generation != __atomic_load_n(&generation, __ATOMIC_RELAXED) ||
                 a->origin))
        return 0;
    uint32_t d = sp_thread_depth(t);
    if (UNLIKELY(d >= a->scratch_capacity || t->top == t->stack_end)) return 0;
    sp_agg_scratch *s = &a->scratch[d];
    uint32_t parent = d ? a->scratch[d - 1].node : SP_AGG_ROOT;
    uint32_t node = predicted_child(a, parent, region, s->node); /* NONE for a NONE parent */
    if (UNLIKELY(node == SP_AGG_NONE)) return 0;
    if (s->slot.end) fold(a, s);
    s->node = node;
    push_frame(t, &s->slot, region);
    return 1;
}

static __attribute__((noinline)) void begin_full(sp_thread *t, sp_region_t region);

void sp_agg_begin(sp_thread *t, sp_region_t region) {
    if (LIKELY(begin_predicted(t, region))) return;
    begin_full(t, region);
}

static void begin_full(sp_thread *t, sp_region_t region) {
    sp_agg_thread *a = current;
    if (UNLIKELY(!a || current_generation != __atomic_load_n(&generation, __ATOMIC_RELAXED)))
        a = attach(t);
    uint32_t d = sp_thread_depth(t);
    if (t->top == t->stack_end && !sp_thread_grow_stack(t)) {
        out_of_memory_once();
        return;
    }
    sp_event_slot *slot = a ? &a->discard : &stateless_slot;
    if (a && (d < a->scratch_capacity || grow_scratch(a, t, d))) {
        sp_agg_scratch *s = &a->scratch[d];
        uint32_t prev = s->node;
        if (s->slot.end && prev != SP_AGG_NONE) fold(a, s);
        uint32_t parent = d ? a->scratch[d - 1].node : a->origin ? top_parent(a) : SP_AGG_ROOT;
        uint32_t node = SP_AGG_NONE;
        /* Below a call that could not be kept, nothing is. */
        if (parent != SP_AGG_NONE && region != SP_REGION_NONE) {
            node = child_of(a, parent, region, prev);
            if (node == SP_AGG_NONE && region <= sp_registry_count()) out_of_memory_once();
        }
        s->node = node;
        s->slot.end = 0;
        if (node != SP_AGG_NONE) slot = &s->slot;
    } else {
        out_of_memory_once();
    }
    push_frame(t, slot, region);
}

uint64_t sp_internal_agg_bytes(void) {
    uint64_t bytes = 0;
    pthread_mutex_lock(&list_lock);
    for (const sp_agg_thread *a = list_head; a; a = a->next) {
        bytes += sizeof *a + (uint64_t)a->scratch_capacity * sizeof *a->scratch +
                 (uint64_t)a->node_capacity * sizeof *a->nodes +
                 (uint64_t)a->table_capacity * (sizeof *a->keys + sizeof *a->values) +
                 (uint64_t)a->anchor_capacity * sizeof *a->anchors;
        for (uint32_t i = 0; i < a->num_nodes; i++)
            bytes += (uint64_t)(a->nodes[i].hist.hi - a->nodes[i].hist.lo) * sizeof(uint64_t);
    }
    pthread_mutex_unlock(&list_lock);
    return bytes;
}
