#include "analysis/filter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "common/error.h"

struct sp_compiled_filter {
    pcre2_code **include;
    size_t num_include;
    const char *const *include_text; /* the caller's patterns (alive while the filter is) */
    const char *const *exclude_text;
    pcre2_code **exclude;
    size_t num_exclude;
    pcre2_match_data *match;
    char *failed_pattern; /* the pattern that hit a PCRE2 limit, and PCRE2's reason */
    char failed_reason[160];
    const char *failed_kind;
    uint32_t *ranks; /* NULL: all ranks */
    uint32_t *sorted_ranks;
    size_t num_ranks;
    const char *const *tags; /* the caller's tags (alive while the filter is) */
    size_t num_tags;
};

static sp_status bad_pattern(const char *kind, const char *pattern, int code, PCRE2_SIZE offset,
                             sp_error *err) {
    PCRE2_UCHAR reason[256];
    if (pcre2_get_error_message(code, reason, sizeof reason) < 0)
        strcpy((char *)reason, "unknown error");
    sp_textbuf b = {0};
    sp_textbuf_printf(&b, "invalid %s pattern ", kind);
    sp_py_str_repr(&b, pattern);
    sp_textbuf_printf(&b, " at position %zu: %s", (size_t)offset, (const char *)reason);
    const char *text = sp_textbuf_str(&b);
    sp_error_set(err, SP_ERR_BAD_PATTERN, "%s", text ? text : "invalid pattern");
    sp_textbuf_free(&b);
    return SP_ERR_BAD_PATTERN;
}

/* Anchored at the start only, like Python's re.match; Unicode-aware like Python 3's str patterns.
 */
static sp_status compile_list(const char *kind, const char *const *patterns, size_t n,
                              pcre2_code ***out, sp_error *err) {
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    const uint32_t options = PCRE2_ANCHORED | PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
    for (size_t i = 0; i < n; i++) {
        const char *p = patterns[i] ? patterns[i] : "";
        int code;
        PCRE2_SIZE offset;
        (*out)[i] =
            pcre2_compile((PCRE2_SPTR)p, PCRE2_ZERO_TERMINATED, options, &code, &offset, NULL);
        if (!(*out)[i]) return bad_pattern(kind, p, code, offset, err);
    }
    return SP_OK;
}

typedef struct rank_at {
    uint32_t rank;
    size_t index;
} rank_at;

static int compare_rank_at(const void *pa, const void *pb) {
    const rank_at *a = pa, *b = pb;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Keeps the first occurrence of every rank, in the given order. */
static sp_status copy_ranks(sp_compiled_filter *f, const uint32_t *ranks, size_t n, sp_error *err) {
    if (!ranks || n == 0) return SP_OK;
    f->ranks = malloc(n * sizeof *f->ranks);
    rank_at *sorted = malloc(n * sizeof *sorted);
    uint8_t *keep = calloc(n, 1);
    sp_status st = SP_OK;
    if (!f->ranks || !sorted || !keep) {
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    } else {
        for (size_t i = 0; i < n; i++)
            sorted[i] = (rank_at){ranks[i], i};
        qsort(sorted, n, sizeof *sorted, compare_rank_at);
        for (size_t i = 0; i < n; i++)
            if (i == 0 || sorted[i].rank != sorted[i - 1].rank) keep[sorted[i].index] = 1;
        for (size_t i = 0; i < n; i++)
            if (keep[i]) f->ranks[f->num_ranks++] = ranks[i];
        f->sorted_ranks = malloc(f->num_ranks * sizeof *f->sorted_ranks);
        if (!f->sorted_ranks) st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0, k = 0; f->sorted_ranks && i < n; i++)
            if (i == 0 || sorted[i].rank != sorted[i - 1].rank)
                f->sorted_ranks[k++] = sorted[i].rank;
    }
    free(sorted);
    free(keep);
    return st;
}

sp_compiled_filter *sp_filter_compile(const sp_filter *filter, sp_error *err) {
    sp_compiled_filter *f = calloc(1, sizeof *f);
    if (!f) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    sp_status st = SP_OK;
    if (filter && filter->include && filter->num_include) {
        f->num_include = filter->num_include;
        f->include_text = (const char *const *)filter->include;
        st = compile_list("include", filter->include, filter->num_include, &f->include, err);
    }
    if (st == SP_OK && filter && filter->exclude && filter->num_exclude) {
        f->num_exclude = filter->num_exclude;
        f->exclude_text = (const char *const *)filter->exclude;
        st = compile_list("exclude", filter->exclude, filter->num_exclude, &f->exclude, err);
    }
    if (st == SP_OK && filter) st = copy_ranks(f, filter->ranks, filter->num_ranks, err);
    if (filter && filter->tags && filter->num_tags) {
        f->tags = filter->tags;
        f->num_tags = filter->num_tags;
    }
    if (st == SP_OK && (f->num_include || f->num_exclude)) {
        f->match = pcre2_match_data_create(1, NULL);
        if (!f->match) st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (st != SP_OK) {
        sp_filter_free(f);
        return NULL;
    }
    return f;
}

void sp_filter_free(sp_compiled_filter *f) {
    if (!f) return;
    for (size_t i = 0; f->include && i < f->num_include; i++)
        pcre2_code_free(f->include[i]);
    for (size_t i = 0; f->exclude && i < f->num_exclude; i++)
        pcre2_code_free(f->exclude[i]);
    free(f->include);
    free(f->exclude);
    pcre2_match_data_free(f->match);
    free(f->failed_pattern);
    free(f->ranks);
    free(f->sorted_ranks);
    free(f);
}

/* 1 match, 0 none, -1 PCRE2 gave up (match or depth limit): never taken as "no match". */
static int matches_any(sp_compiled_filter *f, pcre2_code **codes, size_t n, const char *kind,
                       const char *const *texts, const char *name) {
    for (size_t i = 0; i < n; i++) {
        int rc = pcre2_match(codes[i], (PCRE2_SPTR)name, strlen(name), 0, 0, f->match, NULL);
        if (rc >= 0) return 1;
        if (rc == PCRE2_ERROR_NOMATCH) continue;
        if (!f->failed_pattern) {
            f->failed_pattern = strdup(texts && texts[i] ? texts[i] : "");
            f->failed_kind = kind;
            if (pcre2_get_error_message(rc, (PCRE2_UCHAR *)f->failed_reason,
                                        sizeof f->failed_reason) < 0)
                snprintf(f->failed_reason, sizeof f->failed_reason, "PCRE2 error %d", rc);
        }
        return -1;
    }
    return 0;
}

int sp_filter_keeps(sp_compiled_filter *f, const char *name) {
    if (f->num_include) {
        int in = matches_any(f, f->include, f->num_include, "include", f->include_text, name);
        if (in <= 0) return in;
    }
    if (!f->num_exclude) return 1;
    int out = matches_any(f, f->exclude, f->num_exclude, "exclude", f->exclude_text, name);
    return out < 0 ? -1 : !out;
}

sp_status sp_filter_failure(const sp_compiled_filter *f, sp_error *err) {
    return sp_error_set(err, SP_ERR_BAD_PATTERN,
                        "%s pattern \"%s\" cannot be matched: %s (simplify the pattern, e.g. "
                        "remove nested repetition)",
                        f->failed_kind ? f->failed_kind : "filter",
                        f->failed_pattern ? f->failed_pattern : "", f->failed_reason);
}

int sp_filter_has_patterns(const sp_compiled_filter *f) {
    return f->num_include > 0 || f->num_exclude > 0;
}

const uint32_t *sp_filter_ranks(const sp_compiled_filter *f, size_t *n) {
    *n = f->num_ranks;
    return f->ranks;
}

int sp_filter_has_rank(const sp_compiled_filter *f, uint32_t rank) {
    if (!f->ranks) return 1;
    size_t lo = 0, hi = f->num_ranks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->sorted_ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->num_ranks && f->sorted_ranks[lo] == rank;
}

const char *const *sp_filter_tags(const sp_compiled_filter *f, size_t *n) {
    *n = f->num_tags;
    return f->tags;
}
