#include "export/call_select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

int sp_rule_has_thread(const sp_call_rule *rule, int64_t thread) {
    size_t lo = 0, hi = rule->num_threads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rule->threads[mid] == thread) return 1;
        if (rule->threads[mid] < thread)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Seconds from the origin to absolute ns, saturating (an open end stays open). */
static int64_t window_ns(int64_t origin, double seconds) {
    if (isnan(seconds)) return origin;
    double ns = (double)origin + seconds * 1e9;
    if (ns <= -9.2e18) return INT64_MIN;
    if (ns >= 9.2e18) return INT64_MAX;
    return origin + llround(seconds * 1e9);
}

static sp_status compile_rows(sp_call_rule *rule, const sp_results *r, const sp_filter *filter,
                              sp_error *err) {
    sp_compiled_filter *f = sp_filter_compile(filter, err);
    if (!f) return err ? err->status : SP_ERR_BAD_PATTERN;
    uint8_t *keep_region = calloc(r->m.num_regions + 1, 1);
    rule->row_ok = calloc(r->m.num_rows + 1, 1);
    if (!keep_region || !rule->row_ok) {
        free(keep_region);
        sp_filter_free(f);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t g = 0; g < r->m.num_regions; g++) {
        int keep = sp_filter_keeps_region(f, r, (uint32_t)g);
        if (keep < 0) {
            sp_status st = sp_filter_failure(f, err);
            free(keep_region);
            sp_filter_free(f);
            return st;
        }
        keep_region[g] = (uint8_t)keep;
    }
    for (size_t i = 0; i < r->m.num_rows; i++) {
        const sp_model_row *row = &r->m.rows[i];
        rule->row_ok[i] = (uint8_t)(!r->rows[i].shadowed && keep_region[row->region] &&
                                    sp_filter_has_rank(f, row->rank));
    }
    free(keep_region);
    sp_filter_free(f);
    return SP_OK;
}

/* Calls passing the rule's basic test among rows it keeps, visited with body
 * (their duration d, event e); the calls come window by window into win. */
#define FOR_BASIC(rule, win, st, err, e, d, body)                                                  \
    for (size_t a_ = 0, b_; (st) == SP_OK && a_ < (rule)->r->m.num_rows; a_ = b_) {                \
        b_ = sp_event_batch_end(&(rule)->r->m, a_);                                                \
        if (!kept_rows((rule), a_, b_)) continue;                                                  \
        if (((st) = sp_model_events(&(rule)->r->m, a_, b_, (win), (err))) != SP_OK) break;         \
        for (size_t row_ = a_; row_ < b_; row_++) {                                                \
            if (!(rule)->row_ok[row_]) continue;                                                   \
            const sp_model_row *mr_ = &(rule)->r->m.rows[row_];                                    \
            for (uint64_t e = mr_->offset; e < mr_->offset + mr_->count; e++)                      \
                if (sp_rule_basic((rule), (win), e)) {                                             \
                    int64_t d = (win)->durations[e - (win)->first];                                \
                    body                                                                           \
                }                                                                                  \
        }                                                                                          \
    }

/* Whether rows [a, b) hold a row the rule keeps (else their calls need not be read). */
static int kept_rows(const sp_call_rule *rule, size_t a, size_t b) {
    for (size_t i = a; i < b; i++)
        if (rule->row_ok[i] && rule->r->m.rows[i].count) return 1;
    return 0;
}

/* The max_events cut: the n-th longest duration by a 16-bit radix select
 * (a histogram per pass, no copy of the durations), then the last tie kept in
 * event order. */
static sp_status find_cut(sp_call_rule *rule, sp_event_window *win, uint64_t n, int64_t max_d,
                          sp_error *err) {
    uint64_t *hist = malloc(65536 * sizeof *hist);
    if (!hist) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_status st = SP_OK;
    int top = 48;
    while (top > 0 && ((uint64_t)max_d >> top) == 0)
        top -= 16;
    uint64_t prefix = 0, need = n;
    for (int shift = top; shift >= 0; shift -= 16) {
        memset(hist, 0, 65536 * sizeof *hist);
        int above = shift + 16;
        FOR_BASIC(rule, win, st, err, e, d, {
            uint64_t u = (uint64_t)d;
            if (above >= 64 || (u >> above) == prefix) hist[(u >> shift) & 0xFFFF]++;
        })
        if (st != SP_OK) break;
        uint64_t bucket = 65535;
        for (;; bucket--) {
            if (hist[bucket] >= need || bucket == 0) break;
            need -= hist[bucket];
        }
        prefix = (prefix << 16) | bucket;
    }
    free(hist);
    if (st != SP_OK) return st;
    rule->limited = 1;
    rule->limit_ns = (int64_t)prefix;
    uint64_t ties = 0;
    rule->tie_last = 0;
    FOR_BASIC(rule, win, st, err, e, d, {
        if (d == rule->limit_ns && ties < need) {
            ties++;
            rule->tie_last = e;
        }
    })
    return st;
}

sp_status sp_rule_init(sp_call_rule *rule, const sp_results *r, const sp_call_selection *sel,
                       uint64_t *selected, sp_error *err) {
    static const sp_call_selection all;
    if (!sel) sel = &all;
    memset(rule, 0, sizeof *rule);
    rule->r = r;
    sp_status st = compile_rows(rule, r, &sel->filter, err);
    if (st != SP_OK) return st;
    if (sel->threads && sel->num_threads) {
        rule->threads = malloc(sel->num_threads * sizeof *rule->threads);
        if (!rule->threads) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        memcpy(rule->threads, sel->threads, sel->num_threads * sizeof *rule->threads);
        qsort(rule->threads, sel->num_threads, sizeof *rule->threads, compare_i64);
        rule->num_threads = sel->num_threads;
    }
    rule->window_lo = INT64_MIN;
    rule->window_hi = INT64_MAX;
    if (sel->has_window) {
        int64_t origin = sp_results_time_origin_ns(r);
        rule->window_lo = window_ns(origin, sel->window_start);
        rule->window_hi = window_ns(origin, sel->window_end);
    }
    rule->min_ns = sel->min_duration > 0 ? (int64_t)ceil(sel->min_duration * 1e9) : INT64_MIN;
    uint64_t count = 0;
    int64_t max_d = 0;
    if (!sp_columnar(r)) { /* no calls: rows and threads only (export/hist_calls.c) */
        *selected = 0;
        return SP_OK;
    }
    sp_event_window win = SP_EVENT_WINDOW_INIT;
    FOR_BASIC(rule, &win, st, err, e, d, {
        (void)e;
        count++;
        if (d > max_d) max_d = d;
    })
    if (st == SP_OK && sel->max_events && count > sel->max_events) {
        st = find_cut(rule, &win, sel->max_events, max_d, err);
        count = sel->max_events;
    }
    sp_event_window_free(&win);
    *selected = count;
    return st;
}

void sp_rule_free(sp_call_rule *rule) {
    free(rule->row_ok);
    free(rule->threads);
    memset(rule, 0, sizeof *rule);
}
