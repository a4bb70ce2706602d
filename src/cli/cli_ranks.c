#include "cli/cli_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_error.h"

#define EXPECTED "expected ranks like 0,2,4-7"

static int bad(const char *spec, const char *reason) {
    cli_error("bad --ranks value \"%s\": %s", spec, reason);
    return CLI_EXIT_USAGE;
}

static int push(cli_ranks *r, uint32_t rank) {
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        uint32_t *ranks = realloc(r->ranks, cap * sizeof *ranks);
        if (!ranks) return 0;
        r->ranks = ranks;
        r->cap = cap;
    }
    r->ranks[r->count++] = rank;
    return 1;
}

/* Parses a rank number in [s, end), spaces around it allowed; -1 if it is none. */
static int64_t parse_number(const char *s, const char *end) {
    while (s < end && *s == ' ')
        s++;
    while (end > s && end[-1] == ' ')
        end--;
    if (s == end) return -1;
    int64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9') return -1;
        v = v * 10 + (*s - '0');
        if (v > INT32_MAX) return -2;
    }
    return v;
}

static int add_item(cli_ranks *r, const char *spec, const char *item, const char *end) {
    char reason[160];
    int len = (int)(end - item);
    const char *dash = memchr(item, '-', (size_t)(end - item));
    int64_t lo = parse_number(item, dash ? dash : end);
    int64_t hi = dash ? parse_number(dash + 1, end) : lo;
    if (lo == -2 || hi == -2) return bad(spec, "rank numbers go up to 2147483647");
    if (dash == item && hi >= 0) {
        snprintf(reason, sizeof reason, "\"%.*s\" is negative: ranks count from 0 (%s)", len, item,
                 EXPECTED);
        return bad(spec, reason);
    }
    if (lo < 0 || hi < 0) {
        if (len == 0)
            snprintf(reason, sizeof reason, "an empty item (%s)", EXPECTED);
        else
            snprintf(reason, sizeof reason, "\"%.*s\" is not a rank or a range (%s)", len, item,
                     EXPECTED);
        return bad(spec, reason);
    }
    if (hi < lo) {
        snprintf(reason, sizeof reason, "the range %.*s ends before it starts (%s)", len, item,
                 EXPECTED);
        return bad(spec, reason);
    }
    if ((uint64_t)(hi - lo) + r->count >= CLI_MAX_RANKS)
        return bad(spec, "too many ranks (at most 1048576)");
    for (int64_t v = lo; v <= hi; v++)
        if (!push(r, (uint32_t)v)) return cli_out_of_memory();
    return 0;
}

int cli_ranks_add(cli_ranks *r, const char *spec) {
    const char *item = spec;
    for (;;) {
        const char *comma = strchr(item, ',');
        const char *end = comma ? comma : item + strlen(item);
        int rc = add_item(r, spec, item, end);
        if (rc) return rc;
        if (!comma) return 0;
        item = comma + 1;
    }
}

static int compare_ranks(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void cli_ranks_finish(cli_ranks *r) {
    if (r->count < 2) return;
    qsort(r->ranks, r->count, sizeof *r->ranks, compare_ranks);
    size_t n = 1;
    for (size_t i = 1; i < r->count; i++)
        if (r->ranks[i] != r->ranks[n - 1]) r->ranks[n++] = r->ranks[i];
    r->count = n;
}

void cli_ranks_free(cli_ranks *r) {
    free(r->ranks);
    *r = (cli_ranks)CLI_RANKS_INIT;
}
