#include "analysis/call_parent.h"

void sp_parent_rule_init(sp_parent_rule *rule, const sp_model *m, uint32_t rank) {
    rule->m = m;
    rule->rank = rank;
    rule->has_parents = 0;
    for (size_t i = 0; i < m->num_forks && !rule->has_parents; i++)
        rule->has_parents = m->forks[i].rank == rank;
    for (size_t i = 0; i < m->num_threads && !rule->has_parents; i++)
        rule->has_parents = m->threads[i].rank == rank && sp_thread_parent(&m->threads[i]) >= 0;
}

static int64_t recorded_parent(const sp_model *m, uint32_t rank, int64_t lane) {
    for (size_t i = 0; i < m->num_threads; i++)
        if (m->threads[i].rank == rank && m->threads[i].index == lane)
            return sp_thread_parent(&m->threads[i]);
    return -1;
}

static int fork_before(const sp_thread_fork *f, uint32_t rank, int64_t thread) {
    return f->rank != rank ? f->rank < rank : f->thread < thread;
}

/* The lane's fork points: a slice of the sorted model table. */
static void find_forks(const sp_parent_rule *rule, int64_t lane, sp_stack *s) {
    const sp_thread_fork *forks = rule->m->forks;
    size_t lo = 0, hi = rule->m->num_forks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fork_before(&forks[mid], rule->rank, lane))
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < rule->m->num_forks && forks[end].rank == rule->rank && forks[end].thread == lane)
        end++;
    s->fork_pos = lo;
    s->fork_end = end;
}

/* The fork point in force at time t (calls of a lane come in start order). */
static const sp_thread_fork *current_fork(const sp_parent_rule *rule, sp_stack *s, int64_t t) {
    const sp_thread_fork *forks = rule->m->forks;
    if (s->fork_pos == s->fork_end || forks[s->fork_pos].since_ns > t) return NULL;
    while (s->fork_pos + 1 < s->fork_end && forks[s->fork_pos + 1].since_ns <= t)
        s->fork_pos++;
    return &forks[s->fork_pos];
}

static int contains(const sp_tree_frame *c, const sp_tree_frame *f) {
    return c->start <= f->start && f->end <= c->end;
}

/* Rule 2: frames above an ended one may be stale, so each is checked. */
static sp_tree_frame *open_at_fork(const sp_stack *p, const sp_tree_frame *f, int64_t fork_ns) {
    for (size_t k = p->len; k-- > 0;) {
        sp_tree_frame *c = &p->frames[k];
        if (c->start <= fork_ns && contains(c, f)) return c;
    }
    return NULL;
}

/* Rule 3. */
static sp_tree_frame *containing_outside_own_region(const sp_model *m, const sp_stack *p,
                                                    const sp_tree_frame *f) {
    uint32_t region = m->rows[f->row].region;
    sp_tree_frame *best = NULL;
    for (size_t k = 0; k < p->len; k++) {
        sp_tree_frame *c = &p->frames[k];
        if (!contains(c, f)) continue;
        if (m->rows[c->row].region == region) break;
        best = c;
    }
    return best;
}

sp_tree_frame *sp_call_parent(const sp_parent_rule *rule, sp_lanes *lanes, const sp_tree_frame *f,
                              sp_stack **stack) {
    sp_stack *s = *stack;
    if (s->len) return &s->frames[s->len - 1];
    if (!rule->has_parents) return NULL;
    if (!s->parent_known) {
        s->parent_known = 1;
        s->parent_lane = recorded_parent(rule->m, rule->rank, f->lane);
        find_forks(rule, f->lane, s);
    }
    const sp_thread_fork *fork = current_fork(rule, s, f->start);
    int64_t parent_lane = fork ? fork->parent : s->parent_lane;
    if (parent_lane < 0 || parent_lane == f->lane) return NULL;
    sp_stack *p = sp_lanes_find(lanes, parent_lane);
    *stack = sp_lanes_get(lanes, f->lane);
    if (!p || !*stack) return NULL;
    return fork ? open_at_fork(p, f, fork->fork_ns) : containing_outside_own_region(rule->m, p, f);
}
