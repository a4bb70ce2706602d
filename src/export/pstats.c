/*
 * pstats: the file cProfile's dump_stats() writes, which Python's pstats
 * module and snakeviz read: a marshal'ed dict
 *
 *   {(file, line, name): (cc, nc, tt, ct, {caller key: (cc, nc, tt, ct)})}
 *
 * with one entry per region, keyed ("~", 0, name) as the Python package's
 * export does (pstats prints such a key as the bare name). nc counts the
 * calls, cc those not inside a call of the same region (primitive), tt is
 * the time outside written children on the call's thread, ct the duration of
 * primitive calls only (as cProfile counts recursion), seconds, summed over
 * the walked ranks and threads. A call's caller is its parent's region, or
 * for a top-level call a root entry "<label>" ("<label rank N>" for one rank)
 * whose ct is the top-level time, so snakeviz draws the whole run as a tree.
 * Marshal codes used (readable by every Python 3): '{' dict ended by '0',
 * '(' tuple, 'u' UTF-8 string, 'i' int32, 'l' long, 'g' binary float.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "export/formats.h"
#include "export/names.h"
#include "export/path_map.h"

typedef struct entry {
    uint64_t cc, nc;
    int64_t tt_ns, ct_ns;
} entry;

typedef struct pstats {
    sp_export_job *job;
    size_t num_regions; /* the root's index */
    entry *regions;     /* per region, then the root */
    uint32_t *open;     /* open calls per region on the walked rank */
    sp_path_map edges;  /* (caller, callee) -> edge */
    entry *edge;
    size_t edge_cap;
} pstats;

static sp_status oom(pstats *p) {
    return sp_error_set(p->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
}

/* Whether a call of region is open above call (its enclosing calls, across threads). */
static int inside_same(const pstats *p, const sp_walk_call *parent, uint32_t region) {
    if (!p->open[region]) return 0; /* the usual case: no walk */
    for (const sp_walk_call *a = parent; a; a = sp_call_walker_parent(p->job->w, a))
        if (a->region == region) return 1;
    return 0;
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    pstats *p = ctx;
    uint64_t primitive = !inside_same(p, parent, call->region);
    uint64_t caller = parent ? parent->region : p->num_regions;
    call->user[0] = 0; /* time in written children on this thread */
    call->user[1] = caller << 1 | primitive;
    p->open[call->region]++;
    return SP_OK;
}

static void add(entry *e, uint64_t primitive, int64_t tt, int64_t dur) {
    e->cc += primitive;
    e->nc++;
    e->tt_ns += tt;
    e->ct_ns += primitive ? dur : 0;
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    pstats *p = ctx;
    int64_t dur = call->end_ns - call->start_ns;
    int64_t tt = dur > (int64_t)call->user[0] ? dur - (int64_t)call->user[0] : 0;
    uint64_t primitive = call->user[1] & 1;
    uint32_t caller = (uint32_t)(call->user[1] >> 1);
    p->open[call->region]--;
    add(&p->regions[call->region], primitive, tt, dur);
    int added;
    uint32_t e = sp_path_map_get(&p->edges, caller, call->region, &added);
    if (e == SP_PATH_NONE) return oom(p);
    if (added && e >= p->edge_cap) {
        size_t cap = p->edge_cap ? 2 * p->edge_cap : 256;
        entry *grown = realloc(p->edge, cap * sizeof *grown);
        if (!grown) return oom(p);
        p->edge = grown;
        p->edge_cap = cap;
    }
    if (added) memset(&p->edge[e], 0, sizeof p->edge[e]);
    add(&p->edge[e], primitive, tt, dur);
    if (caller == p->num_regions) p->regions[caller].ct_ns += dur;
    if (parent) parent->user[0] += (uint64_t)dur;
    return SP_OK;
}

/* --- marshal ------------------------------------------------------------- */

static void put_i32(sp_sink *s, uint32_t v) {
    char *b = sp_sink_reserve(s, 4);
    for (int i = 0; i < 4; i++)
        b[i] = (char)(v >> (8 * i) & 0xFF);
    sp_sink_advance(s, 4);
}

static void put_int(sp_sink *s, uint64_t v) {
    if (v <= 0x7FFFFFFF) {
        sp_sink_putc(s, 'i');
        put_i32(s, (uint32_t)v);
        return;
    }
    /* a Python long: the count of 15-bit digits, then the digits, least significant first */
    uint32_t n = 0;
    for (uint64_t t = v; t; t >>= 15)
        n++;
    sp_sink_putc(s, 'l');
    put_i32(s, n);
    for (; v; v >>= 15) {
        sp_sink_putc(s, (char)(v & 0xFF));
        sp_sink_putc(s, (char)(v >> 8 & 0x7F));
    }
}

static void put_float(sp_sink *s, double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    sp_sink_putc(s, 'g');
    put_i32(s, (uint32_t)bits);
    put_i32(s, (uint32_t)(bits >> 32));
}

static void put_str(sp_sink *s, const char *text, size_t len) {
    sp_sink_putc(s, 'u');
    put_i32(s, (uint32_t)len);
    sp_sink_write(s, text, len);
}

static void put_key(sp_sink *s, const char *name, size_t len) {
    sp_sink_putc(s, '(');
    put_i32(s, 3);
    put_str(s, "~", 1);
    put_int(s, 0);
    put_str(s, name, len);
}

static void put_counts(sp_sink *s, const entry *e) {
    put_int(s, e->cc);
    put_int(s, e->nc);
    put_float(s, (double)e->tt_ns / 1e9);
    put_float(s, (double)e->ct_ns / 1e9);
}

/* --- the dict ------------------------------------------------------------ */

typedef struct key_text {
    const char *text;
    size_t len;
} key_text;

static int write_stats(pstats *p, const key_text *keys) {
    sp_sink *s = p->job->sink;
    size_t n = p->num_regions, num_edges = p->edges.count;
    /* edges grouped by callee (a counting sort) */
    size_t *first = calloc(n + 2, sizeof *first);
    uint32_t *order = malloc((num_edges ? num_edges : 1) * sizeof *order);
    if (!first || !order) {
        free(first);
        free(order);
        return 0;
    }
    for (size_t e = 0; e < num_edges; e++)
        first[p->edges.pairs[e].key + 1]++;
    for (size_t g = 0; g < n; g++)
        first[g + 1] += first[g];
    size_t *cursor = calloc(n + 1, sizeof *cursor);
    if (!cursor) {
        free(first);
        free(order);
        return 0;
    }
    memcpy(cursor, first, (n + 1) * sizeof *cursor);
    for (size_t e = 0; e < num_edges; e++)
        order[cursor[p->edges.pairs[e].key]++] = (uint32_t)e;
    free(cursor);

    sp_sink_putc(s, '{');
    for (size_t g = 0; g <= n; g++) {
        const entry *e = &p->regions[g];
        if (!e->nc && g < n) continue;
        put_key(s, keys[g].text, keys[g].len);
        sp_sink_putc(s, '(');
        put_i32(s, 5);
        if (g == n) {
            entry root = {1, 1, 0, e->ct_ns};
            put_counts(s, &root);
        } else {
            put_counts(s, e);
        }
        sp_sink_putc(s, '{');
        for (size_t k = g < n ? first[g] : 0; g < n && k < first[g + 1]; k++) {
            const sp_path_pair *edge = &p->edges.pairs[order[k]];
            put_key(s, keys[edge->parent].text, keys[edge->parent].len);
            sp_sink_putc(s, '(');
            put_i32(s, 4);
            put_counts(s, &p->edge[order[k]]);
        }
        sp_sink_putc(s, '0');
    }
    sp_sink_putc(s, '0');
    free(first);
    free(order);
    return 1;
}

sp_status sp_write_pstats(sp_export_job *job) {
    pstats p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.num_regions = sp_results_num_regions(job->r);
    p.regions = calloc(p.num_regions + 1, sizeof *p.regions);
    p.open = calloc(p.num_regions + 1, sizeof *p.open);
    sp_status st = p.regions && p.open ? SP_OK : oom(&p);
    sp_walk_visitor v = {on_enter, on_leave, &p};
    size_t num_ranks = sp_call_walker_num_ranks(job->w);
    for (size_t i = 0; st == SP_OK && i < num_ranks; i++)
        st = sp_call_walker_run(job->w, sp_call_walker_rank(job->w, i), SP_WALK_ALL_LANES, &v,
                                job->err);
    sp_names names;
    if (st == SP_OK) st = sp_names_build(&names, job->r, SP_NAMES_UTF8, job->err);
    if (st == SP_OK) {
        sp_textbuf root = SP_TEXTBUF_INIT;
        sp_textbuf_putc(&root, '<');
        sp_name_append(&root, sp_results_display_label(job->r), SP_NAMES_UTF8);
        if (num_ranks == 1)
            sp_textbuf_printf(&root, " rank %u", (unsigned)sp_call_walker_rank(job->w, 0));
        sp_textbuf_putc(&root, '>');
        key_text *keys = malloc((p.num_regions + 1) * sizeof *keys);
        if (keys && !sp_textbuf_failed(&root)) {
            for (size_t g = 0; g < p.num_regions; g++)
                keys[g] = (key_text){names.text[g], names.len[g]};
            keys[p.num_regions] = (key_text){root.data, root.len};
            if (!write_stats(&p, keys)) st = oom(&p);
        } else {
            st = oom(&p);
        }
        free(keys);
        sp_textbuf_free(&root);
        sp_names_free(&names);
    }
    sp_path_map_free(&p.edges);
    free(p.edge);
    free(p.regions);
    free(p.open);
    return st;
}
