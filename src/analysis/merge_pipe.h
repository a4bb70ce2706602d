/*
 * A rank's call merge (call_merge.h) run on a helper thread, batches ahead
 * of the thread that visits the calls: the merge is about half of a call
 * tree walk, and on two cores the two halves overlap. Small merges, one
 * core, SCOPE_PROFILER_THREADS=1 or a thread that cannot start: the
 * consumer merges the batches itself. Either way it gets the same calls in
 * the same order. Visitors run on the consumer's thread only.
 */
#ifndef SP_ANALYSIS_MERGE_PIPE_H
#define SP_ANALYSIS_MERGE_PIPE_H

#include <pthread.h>

#include "analysis/call_merge.h"

/* Merges of fewer calls run inline: a thread costs tens of microseconds.
 * SCOPE_PROFILER_PIPE_MIN_CALLS=N overrides it (tests force the thread). */
#define SP_MERGE_PIPE_MIN_CALLS ((uint64_t)1 << 16)
/* Calls per batch: a whole read's walks hand over fewer, larger batches (a
 * handoff wakes a thread: 0.3 s of a 100 M-call inspect at 2,048); a
 * streamed read keeps small ones (its memory cap counts every buffer). */
#define SP_MERGE_PIPE_BATCH       2048u
#define SP_MERGE_PIPE_BATCH_WHOLE 8192u
#define SP_MERGE_PIPE_SLOTS       4u

typedef struct sp_merge_pipe {
    sp_call_merge *merge;
    sp_call_merge *work;   /* the helper's copy of *merge while it runs */
    sp_merged_call *slots; /* SP_MERGE_PIPE_SLOTS batches */
    size_t batch;          /* calls per batch */
    int threaded;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    size_t count[SP_MERGE_PIPE_SLOTS];
    uint64_t produced, taken, released; /* batches so far */
    int holding;                        /* the consumer holds batch taken - 1 */
    int stop;                           /* the consumer wants no more */
    int ended;                          /* the consumer took the empty last batch */
} sp_merge_pipe;

/* Starts delivering m's calls. SP_ERR_OUT_OF_MEMORY when not even one
 * batch can be allocated. */
sp_status sp_merge_pipe_open(sp_merge_pipe *p, sp_call_merge *m, size_t batch);

/* The next batch of calls (valid until the next call), 0 at the end. */
size_t sp_merge_pipe_next(sp_merge_pipe *p, const sp_merged_call **calls);

/* Stops the helper (also before the end) and frees the batches. */
void sp_merge_pipe_close(sp_merge_pipe *p);

#endif
