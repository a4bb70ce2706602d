#include "export/hist_calls.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/region_entry.h"
#include "analysis/unavailable.h"
#include "common/error.h"
#include "export/call_select.h"

#define NONE SIZE_MAX

struct sp_hist_calls {
    const sp_results *r;
    uint8_t *selected;          /* per histogram row: passes the selection */
    size_t *first_child, *next; /* per row: written children in row order */
    size_t *roots_first;        /* per rank index: its first written top-level row */
    uint32_t *ranks;
    size_t num_ranks;
    uint64_t calls, rows;
};

/* The row a histogram row hangs under: its parent, else its fork row, else -1. */
static int64_t up_of(const sp_model *m, size_t k) {
    const sp_model_hist *h = &m->hists[k];
    return h->parent >= 0 ? h->parent : m->hist_forks ? h->fork_parent : -1;
}

static sp_status refuse_calls(const sp_results *r, const sp_call_selection *s, sp_error *err) {
    const char *what = s->has_window         ? "--window"
                       : s->min_duration > 0 ? "--min-duration"
                       : s->max_events       ? "--max-events"
                                             : NULL;
    if (!what) return SP_OK;
    return sp_error_set(err, SP_ERR_UNAVAILABLE,
                        "%s is an aggregate profile: it keeps per-path totals, no calls, so %s "
                        "cannot select; drop it (or record without SCOPE_PROFILER_AGGREGATE)",
                        r->path_text, what);
}

/* Marks the selected rows and every row above one (written), and links the
 * written rows under their parents. */
static void link_rows(sp_hist_calls *c, const sp_call_rule *rule, uint8_t *written) {
    const sp_model *m = &c->r->m;
    for (size_t k = 0; k < m->num_hists; k++) {
        const sp_model_hist *h = &m->hists[k];
        int found = 0;
        uint32_t row = sp_region_entry_index(&c->r->regions[h->region], h->rank, &found);
        c->selected[k] =
            found && rule->row_ok[row] && (!rule->threads || sp_rule_has_thread(rule, h->thread));
        written[k] = c->selected[k];
        c->calls += c->selected[k] ? h->hist.count : 0;
        c->first_child[k] = c->next[k] = NONE;
    }
    for (size_t k = m->num_hists; k-- > 0;) { /* rows hang under earlier rows */
        int64_t up = up_of(m, k);
        if (written[k] && up >= 0) written[up] = 1;
    }
    size_t *last = malloc((m->num_hists ? m->num_hists : 1) * sizeof *last);
    size_t *roots_last = malloc((c->num_ranks ? c->num_ranks : 1) * sizeof *roots_last);
    for (size_t k = 0; last && roots_last && k < m->num_hists; k++) {
        if (!written[k]) continue;
        c->rows++;
        int64_t up = up_of(m, k);
        size_t *first, *tail;
        if (up >= 0) {
            first = &c->first_child[up];
            tail = &last[up];
        } else {
            size_t i = 0;
            while (c->ranks[i] != m->hists[k].rank)
                i++;
            first = &c->roots_first[i];
            tail = &roots_last[i];
        }
        if (*first == NONE)
            *first = k;
        else
            c->next[*tail] = k;
        *tail = k;
    }
    if (!last || !roots_last) c->rows = UINT64_MAX; /* out of memory */
    free(last);
    free(roots_last);
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The selected ranks with rows, ascending, each with an empty root list. */
static int collect_ranks(sp_hist_calls *c, const sp_call_rule *rule) {
    const sp_model *m = &c->r->m;
    size_t n = 0;
    c->ranks = malloc((m->num_rows ? m->num_rows : 1) * sizeof *c->ranks);
    if (!c->ranks) return 0;
    for (size_t i = 0; i < m->num_rows; i++)
        if (rule->row_ok[i]) c->ranks[n++] = m->rows[i].rank;
    qsort(c->ranks, n, sizeof *c->ranks, compare_u32);
    for (size_t i = 0; i < n; i++)
        if (!c->num_ranks || c->ranks[c->num_ranks - 1] != c->ranks[i])
            c->ranks[c->num_ranks++] = c->ranks[i];
    c->roots_first = malloc((c->num_ranks ? c->num_ranks : 1) * sizeof *c->roots_first);
    for (size_t i = 0; c->roots_first && i < c->num_ranks; i++)
        c->roots_first[i] = NONE;
    return c->roots_first != NULL;
}

sp_hist_calls *sp_hist_calls_open(const sp_results *r, const sp_call_selection *selection,
                                  sp_error *err) {
    static const sp_call_selection all;
    const sp_call_selection *s = selection ? selection : &all;
    if (!r->m.num_hists || !r->m.hist_totals) {
        sp_unavailable(r, "call paths", err);
        return NULL;
    }
    if (refuse_calls(r, s, err) != SP_OK) return NULL;
    sp_call_rule rule;
    uint64_t none = 0;
    if (sp_rule_init(&rule, r, s, &none, err) != SP_OK) {
        sp_rule_free(&rule);
        return NULL;
    }
    size_t n = r->m.num_hists;
    sp_hist_calls *c = calloc(1, sizeof *c);
    uint8_t *written = malloc(n);
    int ok = c && written;
    if (ok) {
        c->r = r;
        c->selected = malloc(n);
        c->first_child = malloc(n * sizeof *c->first_child);
        c->next = malloc(n * sizeof *c->next);
        ok = c->selected && c->first_child && c->next && collect_ranks(c, &rule);
    }
    if (ok) link_rows(c, &rule, written);
    if (ok && c->rows == UINT64_MAX) ok = 0;
    free(written);
    sp_rule_free(&rule);
    if (!ok) {
        sp_hist_calls_close(c);
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return c;
}

void sp_hist_calls_close(sp_hist_calls *c) {
    if (!c) return;
    free(c->selected);
    free(c->first_child);
    free(c->next);
    free(c->roots_first);
    free(c->ranks);
    free(c);
}

size_t sp_hist_calls_num_ranks(const sp_hist_calls *c) {
    return c->num_ranks;
}

uint32_t sp_hist_calls_rank(const sp_hist_calls *c, size_t index) {
    return c->ranks[index];
}

uint64_t sp_hist_calls_selected(const sp_hist_calls *c) {
    return c->calls;
}

uint64_t sp_hist_calls_rows(const sp_hist_calls *c) {
    return c->rows;
}

typedef struct open_row {
    sp_walk_call call;
    size_t next_child;
} open_row;

static void fill_call(const sp_hist_calls *c, size_t k, size_t depth, sp_walk_call *call) {
    const sp_model *m = &c->r->m;
    const sp_model_hist *h = &m->hists[k];
    memset(call, 0, sizeof *call);
    call->region = h->region;
    call->name = m->region_names[h->region];
    call->rank = h->rank;
    call->thread = h->thread;
    call->end_ns = h->total; /* a path's calls, end to end */
    call->depth = (uint32_t)depth;
    call->call_id = (int64_t)k;
    call->parent_id = up_of(m, k);
    call->selected = c->selected[k];
    call->cross_lane = h->parent < 0 && call->parent_id >= 0;
    call->pos = depth;
}

sp_status sp_hist_calls_run(sp_hist_calls *c, uint32_t rank, const sp_walk_visitor *v,
                            sp_error *err) {
    size_t i = 0;
    while (i < c->num_ranks && c->ranks[i] != rank)
        i++;
    if (i == c->num_ranks) return SP_OK;
    size_t cap = 64, depth = 0;
    open_row *stack = malloc(cap * sizeof *stack);
    if (!stack) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_status st = SP_OK;
    for (size_t root = c->roots_first[i]; st == SP_OK && root != NONE; root = c->next[root]) {
        fill_call(c, root, 0, &stack[0].call);
        stack[0].next_child = c->first_child[root];
        depth = 1;
        st = v->enter(v->ctx, &stack[0].call, NULL);
        while (st == SP_OK && depth) {
            open_row *top = &stack[depth - 1];
            size_t k = top->next_child;
            if (k == NONE) { /* all children done */
                sp_walk_call *parent = depth > 1 ? &stack[depth - 2].call : NULL;
                if (top->call.cross_lane) parent = NULL; /* the time stays on its thread */
                st = v->leave(v->ctx, &top->call, parent);
                depth--;
                continue;
            }
            top->next_child = c->next[k];
            if (depth == cap) {
                open_row *grown = realloc(stack, 2 * cap * sizeof *grown);
                if (!grown) {
                    st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
                    break;
                }
                stack = grown;
                cap *= 2;
            }
            fill_call(c, k, depth, &stack[depth].call);
            stack[depth].next_child = c->first_child[k];
            st = v->enter(v->ctx, &stack[depth].call, &stack[depth - 1].call);
            depth++;
        }
    }
    free(stack);
    return st;
}
