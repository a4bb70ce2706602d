/* Suggesting a known name for a misspelt one. */
#ifndef SP_ANALYSIS_SUGGEST_H
#define SP_ANALYSIS_SUGGEST_H

#include <stddef.h>

/* Index of the name closest to query within an edit distance of max(1, len/3)
 * code points (transpositions count once; ties go to the earlier name), or -1. */
long sp_suggest_name(const char *query, const char *const *names, size_t n);

#endif
