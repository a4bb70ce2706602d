#include "analysis/path_trie.h"

#include <stdlib.h>
#include <string.h>

#include "common/text_buffer.h"

static const char path_separator[] = " > ";

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static uint64_t hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 33);
}

static size_t piece_slot(const sp_path_trie *t, const char *s, size_t n) {
    size_t mask = t->piece_slots_cap - 1, i = (size_t)hash_bytes(s, n) & mask;
    for (; t->piece_slots[i]; i = (i + 1) & mask) {
        uint32_t id = t->piece_slots[i] - 1;
        if (t->piece_len[id] == n && memcmp(t->piece_text[id], s, n) == 0) break;
    }
    return i;
}

uint32_t sp_trie_find_piece(const sp_path_trie *t, const char *text, size_t len) {
    size_t i = piece_slot(t, text, len);
    return t->piece_slots[i] ? t->piece_slots[i] - 1 : SP_NO_NODE;
}

static uint32_t intern(sp_path_trie *t, const char *s, size_t n) {
    size_t i = piece_slot(t, s, n);
    if (t->piece_slots[i]) return t->piece_slots[i] - 1;
    uint32_t id = (uint32_t)t->num_pieces++;
    t->piece_text[id] = s;
    t->piece_len[id] = n;
    t->piece_slots[i] = id + 1;
    return id;
}

/* Elements of one name: split on " > " like Python's str.split. */
static size_t count_pieces(const char *name) {
    size_t n = 1;
    for (const char *p = name; (p = strstr(p, path_separator)); p += sizeof path_separator - 1)
        n++;
    return n;
}

static sp_status alloc_pieces(sp_path_trie *t, const sp_results *r, size_t *total) {
    size_t nreg = r->m.num_regions;
    *total = 0;
    t->region_first = malloc((nreg + 1) * sizeof *t->region_first);
    if (!t->region_first) return SP_ERR_OUT_OF_MEMORY;
    for (size_t g = 0; g < nreg; g++) {
        t->region_first[g] = *total;
        *total += count_pieces(r->m.region_names[g]);
    }
    t->region_first[nreg] = *total;
    size_t cap = 16;
    while (cap < 2 * *total)
        cap *= 2;
    t->piece_slots_cap = cap;
    t->piece_slots = calloc(cap, sizeof *t->piece_slots);
    t->region_pieces = malloc((*total + 1) * sizeof *t->region_pieces);
    t->piece_text = malloc((*total + 1) * sizeof *t->piece_text);
    t->piece_len = malloc((*total + 1) * sizeof *t->piece_len);
    t->child_cap = 64;
    t->child_keys = calloc(t->child_cap, sizeof *t->child_keys);
    t->child_vals = malloc(t->child_cap * sizeof *t->child_vals);
    if (!t->piece_slots || !t->region_pieces || !t->piece_text || !t->piece_len || !t->child_keys ||
        !t->child_vals)
        return SP_ERR_OUT_OF_MEMORY;
    return SP_OK;
}

sp_status sp_trie_init(sp_path_trie *t, const sp_results *r) {
    memset(t, 0, sizeof *t);
    size_t total;
    if (alloc_pieces(t, r, &total) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
    t->excluded = r->excluded_state == 1 ? r->excluded : NULL;
    size_t k = 0;
    for (size_t g = 0; g < r->m.num_regions; g++) {
        const char *p = r->m.region_names[g], *sep;
        while ((sep = strstr(p, path_separator))) {
            t->region_pieces[k++] = intern(t, p, (size_t)(sep - p));
            p = sep + sizeof path_separator - 1;
        }
        t->region_pieces[k++] = intern(t, p, strlen(p));
    }
    return SP_OK;
}

void sp_node_release(sp_path_node *n) {
    sp_node_calls_free(&n->durations);
    free(n->pending.pos);
    free(n->pending.value);
    sp_hist_free(&n->hist);
    memset(&n->pending, 0, sizeof n->pending);
}

sp_status sp_node_push(sp_path_node *n, int64_t duration, const int64_t *at) {
    sp_status st = at && *at == duration ? sp_node_calls_borrow(&n->durations, at)
                                         : sp_node_calls_copy(&n->durations, duration);
    if (st != SP_OK) return st;
    if (n->calls == 0 || duration < n->min_ns) n->min_ns = duration;
    if (n->calls == 0 || duration > n->max_ns) n->max_ns = duration;
    n->calls++;
    return SP_OK;
}

static void pending_swap(sp_pending *p, size_t a, size_t b) {
    uint64_t pos = p->pos[a];
    int64_t value = p->value[a];
    p->pos[a] = p->pos[b];
    p->value[a] = p->value[b];
    p->pos[b] = pos;
    p->value[b] = value;
}

static sp_status pending_push(sp_pending *p, uint64_t pos, int64_t value) {
    if (p->len == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        uint64_t *np = realloc(p->pos, cap * sizeof *np);
        if (np) p->pos = np;
        int64_t *nv = np ? realloc(p->value, cap * sizeof *nv) : NULL;
        if (nv) p->value = nv;
        if (!np || !nv) return SP_ERR_OUT_OF_MEMORY;
        p->cap = cap;
    }
    size_t i = p->len++;
    p->pos[i] = pos;
    p->value[i] = value;
    for (; i > 0 && p->pos[(i - 1) / 2] > p->pos[i]; i = (i - 1) / 2)
        pending_swap(p, i, (i - 1) / 2);
    return SP_OK;
}

static void pending_pop(sp_pending *p) {
    p->len--;
    p->pos[0] = p->pos[p->len];
    p->value[0] = p->value[p->len];
    for (size_t i = 0;;) {
        size_t c = 2 * i + 1;
        if (c >= p->len) break;
        if (c + 1 < p->len && p->pos[c + 1] < p->pos[c]) c++;
        if (p->pos[i] <= p->pos[c]) break;
        pending_swap(p, i, c);
        i = c;
    }
}

sp_status sp_node_exclusive(sp_path_node *n, uint64_t pos, int64_t value) {
    if (pos != n->excl_next) return pending_push(&n->pending, pos, value);
    n->exclusive += sp_seconds(value);
    n->excl_next++;
    while (n->pending.len && n->pending.pos[0] == n->excl_next) {
        n->exclusive += sp_seconds(n->pending.value[0]);
        n->excl_next++;
        pending_pop(&n->pending);
    }
    return SP_OK;
}

void sp_trie_free(sp_path_trie *t) {
    for (size_t i = 0; i < t->num_nodes; i++) {
        sp_node_release(&t->nodes[i]);
        free(t->nodes[i].rank_totals);
        free(t->nodes[i].rank_ids);
        free(t->nodes[i].lanes);
        sp_lane_sums_free(&t->nodes[i].rank_threads);
    }
    free(t->nodes);
    free(t->child_keys);
    free(t->child_vals);
    free(t->piece_text);
    free(t->piece_len);
    free(t->piece_slots);
    free(t->region_pieces);
    free(t->region_first);
    free(t->piece_folded);
    memset(t, 0, sizeof *t);
}

static size_t child_slot(const sp_path_trie *t, uint64_t key) {
    size_t mask = t->child_cap - 1, i = (size_t)hash_u64(key) & mask;
    while (t->child_keys[i] && t->child_keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static sp_status grow_children(sp_path_trie *t) {
    size_t old_cap = t->child_cap;
    uint64_t *old_keys = t->child_keys;
    uint32_t *old_vals = t->child_vals;
    t->child_cap = 2 * old_cap;
    t->child_keys = calloc(t->child_cap, sizeof *t->child_keys);
    t->child_vals = malloc(t->child_cap * sizeof *t->child_vals);
    if (!t->child_keys || !t->child_vals) {
        free(t->child_keys);
        free(t->child_vals);
        t->child_keys = old_keys;
        t->child_vals = old_vals;
        t->child_cap = old_cap;
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < old_cap; i++) {
        if (!old_keys[i]) continue;
        size_t j = child_slot(t, old_keys[i]);
        t->child_keys[j] = old_keys[i];
        t->child_vals[j] = old_vals[i];
    }
    free(old_keys);
    free(old_vals);
    return SP_OK;
}

static uint32_t new_node(sp_path_trie *t, uint32_t parent, uint32_t piece) {
    if (t->num_nodes == t->nodes_cap) {
        size_t cap = t->nodes_cap ? 2 * t->nodes_cap : 32;
        sp_path_node *grown = realloc(t->nodes, cap * sizeof *grown);
        if (!grown) return SP_NO_NODE;
        t->nodes = grown;
        t->nodes_cap = cap;
    }
    sp_path_node *n = &t->nodes[t->num_nodes];
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->piece = piece;
    n->depth = parent == SP_NO_NODE ? 0 : t->nodes[parent].depth + 1;
    n->seq = SP_NO_NODE;
    n->rank_pass = UINT32_MAX;
    return (uint32_t)t->num_nodes++;
}

uint32_t sp_trie_child(sp_path_trie *t, uint32_t parent, uint32_t piece) {
    uint64_t key = ((uint64_t)(parent + 1u) << 32 | piece) + 1; /* never 0 */
    size_t i = child_slot(t, key);
    if (t->child_keys[i]) return t->child_vals[i];
    if (2 * (t->child_count + 1) > t->child_cap) {
        if (grow_children(t) != SP_OK) return SP_NO_NODE;
        i = child_slot(t, key);
    }
    uint32_t id = new_node(t, parent, piece);
    if (id == SP_NO_NODE) return id;
    t->child_keys[i] = key;
    t->child_vals[i] = id;
    t->child_count++;
    return id;
}
