/*
 * The call paths of an aggregate file (its histogram rows, docs/format.md)
 * walked as calls, so that a per-path writer (folded) takes them from the
 * same visitor as per-call files: each row is one call lasting the path's
 * total on its thread, entered after its parent row and left after its
 * children. A forked thread's top-level row enters under the row that forked
 * it (`fork_parents`, cross_lane; leave() gets NULL, as in call_walk.h).
 * Selection: ranks, threads and include/exclude patterns (a row is written
 * when selected or above a selected row); a window, a minimum duration or
 * an event limit need calls and are refused.
 */
#ifndef SP_EXPORT_HIST_CALLS_H
#define SP_EXPORT_HIST_CALLS_H

#include "analysis/internal.h"
#include "export/call_walk.h"

typedef struct sp_hist_calls sp_hist_calls;

/* NULL with err set: a file without call paths, a selection that needs
 * calls, a bad pattern, out of memory. */
sp_hist_calls *sp_hist_calls_open(const sp_results *r, const sp_call_selection *selection,
                                  sp_error *err);
void sp_hist_calls_close(sp_hist_calls *c);

/* The selected ranks with written rows, ascending. */
size_t sp_hist_calls_num_ranks(const sp_hist_calls *c);
uint32_t sp_hist_calls_rank(const sp_hist_calls *c, size_t index);

/* The calls of the selected rows, and the number of written rows. */
uint64_t sp_hist_calls_selected(const sp_hist_calls *c);
uint64_t sp_hist_calls_rows(const sp_hist_calls *c);

/* Walks the written rows of one rank depth first, siblings in row order. */
sp_status sp_hist_calls_run(sp_hist_calls *c, uint32_t rank, const sp_walk_visitor *v,
                            sp_error *err);

#endif
