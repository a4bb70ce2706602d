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

/* Calls passing the rule's basic test among rows it keeps, visited with fn. */
#define FOR_BASIC(rule, e, body)                                                                   \
    for (size_t row_ = 0; row_ < (rule)->r->m.num_rows; row_++) {                                  \
        if (!(rule)->row_ok[row_]) continue;                                                       \
        const sp_model_row *mr_ = &(rule)->r->m.rows[row_];                                        \
        for (uint64_t e = mr_->offset; e < mr_->offset + mr_->count; e++)                          \
            if (sp_rule_basic((rule), e)) {                                                        \
                body                                                                               \
            }                                                                                      \
    }

/* The max_events cut: the n-th longest duration by a 16-bit radix select
 * (a histogram per pass, no copy of the durations), then the last tie kept in
 * event order. */
static sp_status find_cut(sp_call_rule *rule, uint64_t n, int64_t max_d, sp_error *err) {
    const int64_t *dur = rule->r->m.durations;
    uint64_t *hist = malloc(65536 * sizeof *hist);
    if (!hist) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    int top = 48;
    while (top > 0 && ((uint64_t)max_d >> top) == 0)
        top -= 16;
    uint64_t prefix = 0, need = n;
    for (int shift = top; shift >= 0; shift -= 16) {
        memset(hist, 0, 65536 * sizeof *hist);
        int above = shift + 16;
        FOR_BASIC(rule, e, {
            uint64_t d = (uint64_t)dur[e];
            if (above >= 64 || (d >> above) == prefix) hist[(d >> shift) & 0xFFFF]++;
        })
        uint64_t bucket = 65535;
        for (;; bucket--) {
            if (hist[bucket] >= need || bucket == 0) break;
            need -= hist[bucket];
        }
        prefix = (prefix << 16) | bucket;
    }
    free(hist);
    rule->limited = 1;
    rule->limit_ns = (int64_t)prefix;
    uint64_t ties = 0;
    rule->tie_last = 0;
    FOR_BASIC(rule, e, {
        if (dur[e] == rule->limit_ns && ties < need) {
            ties++;
            rule->tie_last = e;
        }
    })
    return SP_OK;
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
    FOR_BASIC(rule, e, {
        count++;
        if (r->m.durations[e] > max_d) max_d = r->m.durations[e];
    })
    if (sel->max_events && count > sel->max_events) {
        st = find_cut(rule, sel->max_events, max_d, err);
        if (st != SP_OK) return st;
        count = sel->max_events;
    }
    *selected = count;
    return SP_OK;
}

void sp_rule_free(sp_call_rule *rule) {
    free(rule->row_ok);
    free(rule->threads);
    memset(rule, 0, sizeof *rule);
}
