/* The per-call selection of the call walker (call_select.c), private to src/export/. */
#ifndef SP_EXPORT_CALL_SELECT_H
#define SP_EXPORT_CALL_SELECT_H

#include <stdint.h>

#include "analysis/filter.h"
#include "analysis/internal.h"
#include "export/call_walk.h"
#include "model/event_window.h"

typedef struct sp_call_rule {
    const sp_results *r;
    uint8_t *row_ok;  /* per model row: rank and region selected, row not shadowed */
    int64_t *threads; /* sorted; NULL = all */
    size_t num_threads;
    int64_t window_lo, window_hi; /* absolute aligned ns, inclusive */
    int64_t min_ns;
    int limited; /* max_events cut: keep d > limit_ns, or d == limit_ns up to tie_last */
    int64_t limit_ns;
    uint64_t tie_last;
} sp_call_rule;

int sp_rule_has_thread(const sp_call_rule *rule, int64_t thread);

/* Whether event e (of a row with row_ok set, its calls in win) passes everything but the
 * max_events cut. */
static inline int sp_rule_basic(const sp_call_rule *rule, const sp_event_window *win, uint64_t e) {
    int64_t s = win->starts[e - win->first], d = win->durations[e - win->first];
    if (d < rule->min_ns || s > rule->window_hi || sp_end_ns(s, d) < rule->window_lo) return 0;
    return !rule->threads || sp_rule_has_thread(rule, sp_window_thread(win, e));
}

static inline int sp_rule_keeps(const sp_call_rule *rule, const sp_event_window *win, uint32_t row,
                                uint64_t e) {
    if (!rule->row_ok[row] || !sp_rule_basic(rule, win, e)) return 0;
    if (!rule->limited) return 1;
    int64_t d = win->durations[e - win->first];
    return d > rule->limit_ns || (d == rule->limit_ns && e <= rule->tie_last);
}

/* Compiles sel into rule (patterns, ranks, threads, window, duration) and, with
 * max_events, finds the cut. *selected = number of calls kept. */
sp_status sp_rule_init(sp_call_rule *rule, const sp_results *r, const sp_call_selection *sel,
                       uint64_t *selected, sp_error *err);
void sp_rule_free(sp_call_rule *rule);

#endif
