/*
 * Rank lists: "--ranks 0,2,4-7" (and "--ranks 0 2 4-7"): numbers and
 * inclusive ranges, separated by commas; the union, sorted, each rank once.
 */
#ifndef SP_CLI_RANKS_H
#define SP_CLI_RANKS_H

#include <stddef.h>
#include <stdint.h>

/* Ranks are MPI ranks: 0 to INT32_MAX. At most this many in one list. */
#define CLI_MAX_RANKS (1u << 20)

typedef struct cli_ranks {
    uint32_t *ranks;
    size_t count;
    size_t cap;
} cli_ranks;

#define CLI_RANKS_INIT                                                                             \
    { NULL, 0, 0 }

/* Adds one specification ("0,2,4-7"). Returns 0, or CLI_EXIT_USAGE after
 * printing `bad --ranks value "SPEC": REASON`. */
int cli_ranks_add(cli_ranks *r, const char *spec);

/* Sorts the ranks and drops repeats. */
void cli_ranks_finish(cli_ranks *r);

void cli_ranks_free(cli_ranks *r);

#endif
