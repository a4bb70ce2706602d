/*
 * folded: one line per call path, "a;b;c <ns>", where <ns> is the time the
 * path's calls spent outside their written children (without selection
 * options: the exclusive time), summed over all calls, threads and ranks
 * (with per_rank: a first frame "rank N"). Frames escape "%", ";" and control
 * characters as %XX (docs/cli.md). Lines come in first-call order, depth
 * first; paths whose total is 0 ns are left out. Memory: one node per distinct
 * path. A path deeper than the depth cap (options->max_depth frames, default
 * SP_FOLDED_DEFAULT_DEPTH) keeps its first max_depth - 1 frames; everything
 * below ends in one frame "…(N levels)" (N: how deep it went) with the time
 * of all those calls, so that output and memory stay bounded on deep runs.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "export/formats.h"
#include "export/names.h"

#define NO_NODE  UINT32_MAX
#define RANK_KEY (UINT64_C(1) << 32)
#define FOLD_KEY (UINT64_C(1) << 33)

typedef struct node {
    uint32_t parent;
    uint32_t first_child, last_child, next_sibling;
    uint64_t key; /* region index, RANK_KEY | rank, or FOLD_KEY */
    uint64_t self_ns;
    uint32_t levels; /* FOLD_KEY: the deepest level folded into it, from 1 */
} node;

typedef struct folded {
    sp_export_job *job;
    node *nodes;
    size_t count, cap;
    uint32_t *slots; /* open addressing: node index + 1, 0 = empty */
    size_t num_slots;
    uint32_t roots_first, roots_last;
    uint32_t rank_node; /* per_rank: the current rank's root */
    uint32_t max_depth; /* frames per line */
    uint64_t bytes;     /* counted instead of written when the job has no sink */
    int oom;
} folded;

static size_t slot_of(uint32_t parent, uint64_t key, size_t mask) {
    uint64_t h = ((uint64_t)parent * 0x9E3779B97F4A7C15u) ^ (key * 0xC2B2AE3D27D4EB4Fu);
    return (size_t)(h ^ (h >> 29)) & mask;
}

static int grow_slots(folded *f) {
    size_t n = f->num_slots ? 2 * f->num_slots : 1024;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots) return 0;
    for (size_t i = 0; i < f->count; i++) {
        size_t k = slot_of(f->nodes[i].parent, f->nodes[i].key, n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = (uint32_t)i + 1;
    }
    free(f->slots);
    f->slots = slots;
    f->num_slots = n;
    return 1;
}

static void link_child(folded *f, uint32_t parent, uint32_t id) {
    uint32_t *first = parent == NO_NODE ? &f->roots_first : &f->nodes[parent].first_child;
    uint32_t *last = parent == NO_NODE ? &f->roots_last : &f->nodes[parent].last_child;
    if (*first == NO_NODE)
        *first = id;
    else
        f->nodes[*last].next_sibling = id;
    *last = id;
}

/* The child of parent along key, created when new; NO_NODE when out of memory. */
static uint32_t child(folded *f, uint32_t parent, uint64_t key) {
    if ((f->count + 1) * 2 > f->num_slots && !grow_slots(f)) return NO_NODE;
    size_t mask = f->num_slots - 1, k = slot_of(parent, key, mask);
    for (; f->slots[k]; k = (k + 1) & mask) {
        const node *n = &f->nodes[f->slots[k] - 1];
        if (n->parent == parent && n->key == key) return f->slots[k] - 1;
    }
    if (f->count == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 256;
        node *grown = realloc(f->nodes, cap * sizeof *grown);
        if (!grown || cap > NO_NODE) return NO_NODE;
        f->nodes = grown;
        f->cap = cap;
    }
    uint32_t id = (uint32_t)f->count++;
    f->nodes[id] = (node){parent, NO_NODE, NO_NODE, NO_NODE, key, 0, 0};
    f->slots[k] = id + 1;
    link_child(f, parent, id);
    return id;
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    folded *f = ctx;
    uint32_t up = parent ? (uint32_t)parent->user[0] : f->rank_node;
    uint64_t frame = (uint64_t)call->depth + (f->rank_node != NO_NODE); /* 0-based */
    uint32_t id;
    if (frame + 1 < f->max_depth) {
        id = child(f, up, call->region);
    } else { /* the cap's frame, or below it: one fold node per capped path */
        id = frame + 1 == f->max_depth ? child(f, up, FOLD_KEY) : up;
        uint64_t levels = frame + 2 - f->max_depth;
        if (id != NO_NODE && levels > f->nodes[id].levels)
            f->nodes[id].levels = levels > UINT32_MAX ? UINT32_MAX : (uint32_t)levels;
    }
    if (id == NO_NODE) return sp_error_set(f->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    call->user[0] = id;
    call->user[1] = 0; /* time in written children */
    return SP_OK;
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    folded *f = ctx;
    uint64_t dur = (uint64_t)(call->end_ns - call->start_ns);
    f->nodes[call->user[0]].self_ns += dur > call->user[1] ? dur - call->user[1] : 0;
    if (parent) parent->user[1] += dur;
    return SP_OK;
}

static void put_frame(folded *f, const sp_names *names, const node *n, sp_textbuf *line) {
    if (n->key & FOLD_KEY)
        sp_textbuf_printf(line, "\xe2\x80\xa6(%u level%s)", (unsigned)n->levels,
                          n->levels == 1 ? "" : "s");
    else if (n->key & RANK_KEY)
        sp_textbuf_printf(line, "rank %u", (unsigned)(n->key & 0xFFFFFFFFu));
    else
        sp_textbuf_append_n(line, names->text[n->key], names->len[n->key]);
    (void)f;
}

/* Depth-first over the trie, keeping the current path's text in line. */
static int write_lines(folded *f, const sp_names *names) {
    sp_textbuf line = SP_TEXTBUF_INIT;
    size_t *marks = malloc((f->count + 1) * sizeof *marks);
    if (!marks) return 0;
    uint32_t id = f->roots_first;
    size_t depth = 0;
    while (id != NO_NODE) {
        const node *n = &f->nodes[id];
        marks[depth] = line.len;
        if (depth) sp_textbuf_putc(&line, ';');
        put_frame(f, names, n, &line);
        if (n->self_ns && !f->job->sink) {
            char digits[24];
            f->bytes +=
                line.len + 2 +
                (uint64_t)snprintf(digits, sizeof digits, "%llu", (unsigned long long)n->self_ns);
        } else if (n->self_ns) {
            sp_sink_write(f->job->sink, line.data, line.len);
            sp_sink_putc(f->job->sink, ' ');
            sp_sink_u64(f->job->sink, n->self_ns);
            sp_sink_putc(f->job->sink, '\n');
        }
        if (n->first_child != NO_NODE) {
            depth++;
            id = n->first_child;
            continue;
        }
        /* Up until a node with a next sibling. */
        while (id != NO_NODE && f->nodes[id].next_sibling == NO_NODE) {
            id = f->nodes[id].parent;
            if (id != NO_NODE) depth--;
        }
        if (id == NO_NODE) break;
        line.len = marks[depth];
        if (line.data) line.data[line.len] = '\0';
        id = f->nodes[id].next_sibling;
    }
    int ok = !sp_textbuf_failed(&line);
    free(marks);
    sp_textbuf_free(&line);
    return ok;
}

/* Per-call files walk their calls; aggregate files their call paths (export/hist_calls.h). */
static size_t num_ranks(const sp_export_job *job) {
    return job->hists ? sp_hist_calls_num_ranks(job->hists) : sp_call_walker_num_ranks(job->w);
}

static uint32_t rank_at(const sp_export_job *job, size_t i) {
    return job->hists ? sp_hist_calls_rank(job->hists, i) : sp_call_walker_rank(job->w, i);
}

static sp_status walk_rank(sp_export_job *job, uint32_t rank, const sp_walk_visitor *v) {
    if (job->hists) return sp_hist_calls_run(job->hists, rank, v, job->err);
    return sp_call_walker_run(job->w, rank, SP_WALK_ALL_LANES, v, job->err);
}

/* Builds the paths and writes them, or with no sink counts their bytes. */
static sp_status run_folded(sp_export_job *job, uint64_t *bytes) {
    folded f;
    memset(&f, 0, sizeof f);
    f.job = job;
    f.max_depth = job->options->max_depth >= 2 ? job->options->max_depth : SP_FOLDED_DEFAULT_DEPTH;
    f.roots_first = f.roots_last = f.rank_node = NO_NODE;
    sp_walk_visitor v = {on_enter, on_leave, &f};
    sp_status st = SP_OK;
    for (size_t i = 0; st == SP_OK && i < num_ranks(job); i++) {
        uint32_t rank = rank_at(job, i);
        if (job->options->per_rank) {
            f.rank_node = child(&f, NO_NODE, RANK_KEY | rank);
            if (f.rank_node == NO_NODE) {
                st = sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
                break;
            }
        }
        st = walk_rank(job, rank, &v);
    }
    sp_names names;
    if (st == SP_OK) st = sp_names_build(&names, job->r, SP_NAMES_FOLDED, job->err);
    if (st == SP_OK) {
        if (!write_lines(&f, &names))
            st = sp_error_set(job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        sp_names_free(&names);
    }
    free(f.nodes);
    free(f.slots);
    if (bytes) *bytes = f.bytes;
    return st;
}

sp_status sp_write_folded(sp_export_job *job) {
    return run_folded(job, NULL);
}

uint64_t sp_folded_bytes(const sp_export_job *job) {
    sp_export_job counting = *job;
    counting.sink = NULL;
    uint64_t bytes = 0;
    return run_folded(&counting, &bytes) == SP_OK ? bytes : 0;
}
