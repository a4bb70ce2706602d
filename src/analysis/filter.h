/* Region filters compiled once: include/exclude patterns and a rank list. */
#ifndef SP_ANALYSIS_FILTER_H
#define SP_ANALYSIS_FILTER_H

#include "analysis/internal.h"

typedef struct sp_compiled_filter sp_compiled_filter;

/* Compiles filter (NULL = keep everything). SP_ERR_BAD_PATTERN names the
 * pattern, the position and PCRE2's reason; NULL is returned on any error. */
sp_compiled_filter *sp_filter_compile(const sp_filter *filter, sp_error *err);
void sp_filter_free(sp_compiled_filter *f);

/* 1 when the name passes include and exclude (re.match semantics), 0 when
 * not, -1 when PCRE2 gave up on a pattern (its match limit): then
 * sp_filter_failure() sets the error naming the pattern. */
int sp_filter_keeps(sp_compiled_filter *f, const char *name);
sp_status sp_filter_failure(const sp_compiled_filter *f, sp_error *err);

/* Nonzero when include or exclude patterns were given (Python: "a filter is active"). */
int sp_filter_has_patterns(const sp_compiled_filter *f);

/* The selected ranks in their given order without repeats; NULL when all ranks are. */
const uint32_t *sp_filter_ranks(const sp_compiled_filter *f, size_t *n);

/* Nonzero when rank is selected (always without a rank list). */
int sp_filter_has_rank(const sp_compiled_filter *f, uint32_t rank);

/* The --tag values (NULL, 0 without them). */
const char *const *sp_filter_tags(const sp_compiled_filter *f, size_t *n);

/* sp_filter_keeps() of the region's name, and when tags were given, one of them
 * among the tags of some row of region g (filter_tags.c). */
int sp_filter_keeps_region(sp_compiled_filter *f, const sp_results *r, uint32_t g);

#endif
