/*
 * Where recorded calls live: large blocks, taken per thread and carved into
 * per-region chunks without a lock. In journal mode the blocks are pages of
 * a file mapped shared (src/record/journal_layout.h), so that whatever a
 * thread stored survives the process; in memory mode they are anonymous
 * (huge) pages. Either way a block is populated in bulk when it is taken,
 * so that recording into it does not page-fault. Taking a block is the only
 * step that locks or calls the kernel.
 */
#ifndef SP_RECORD_STORE_H
#define SP_RECORD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "record/config.h"

struct sp_thread;
struct sp_event_slot;

/* One block a thread took (the thread's list is in sp_thread). */
typedef struct sp_store_block {
    char *base;
    uint64_t size;
    uint64_t used;  /* bytes carved so far, the block header included */
    int64_t offset; /* in the journal, or -1 for an anonymous block */
} sp_store_block;

/* Starts the store of a session (journal or memory, cfg->journal and the
 * environment decide). Never fails: without a journal it records in memory
 * (with a warning when the journal was asked for). */
void sp_store_open(const sp_config *cfg);

/* Ends it: the journal is removed unless `keep`. Threads' blocks must have
 * been given back (sp_store_release_thread) first. */
void sp_store_close(int keep);

/* Nonzero when the blocks are journal pages; the journal's path or NULL. */
int sp_store_is_journal(void);
const char *sp_store_journal_path(void);

/* A chunk of up to `wanted` slots (at least a few) for the thread's row of
 * `region`, the row's `sequence`-th chunk; *got says how many. NULL when the
 * memory limit is reached or memory runs out. */
struct sp_event_slot *sp_store_chunk(struct sp_thread *t, uint32_t region, uint32_t sequence,
                                     uint32_t wanted, uint32_t *got);

/* Whether `bytes` more could be taken at all (the limit, the machine's memory). */
int sp_store_could_take(uint64_t bytes);

/* Gives back the blocks the thread took after it had `num_blocks` blocks of
 * which the last had `used` bytes carved (a failed reservation). */
void sp_store_rollback(struct sp_thread *t, uint32_t num_blocks, uint64_t used);

/* Gives back every block of the thread. */
void sp_store_release_thread(struct sp_thread *t);

/* The thread has ended: the room left in its last block goes to a pool that
 * the next thread's first chunks are carved from (its chunks stay where
 * they are, for finalize). */
void sp_store_thread_ended(struct sp_thread *t);

/* The pages wholly inside [p, p + bytes) are no longer needed (finalize has
 * converted them): their memory goes back to the system. */
void sp_store_discard(void *p, size_t bytes);

/* Marks how the run ended in the journal (async-signal-safe: plain stores,
 * rdtsc and clock_gettime only). */
/* Marks the ending and says on stderr, after `why` ("" or a clause ending in
 * "; "), that the journal is kept and which recover command to run (or that
 * without a journal the calls are lost). The caller keeps the journal. */
void sp_store_keep_journal(unsigned ending, const char *why);

void sp_store_mark_ending(unsigned ending, int signal_number);

/* The MPI library tells the journal the process's rank. */
void sp_store_set_rank(int64_t rank, int64_t size);

/* In a child after fork(): forgets the parent's journal and blocks without
 * touching them (the child must not write the parent's journal). */
void sp_store_forget_after_fork(void);

/* pthread_atfork: the store's lock is held across fork(). */
void sp_store_lock_for_fork(void);
void sp_store_unlock_after_fork(void);

/* Bytes held in blocks now (for the memory limit and tests). */
uint64_t sp_store_bytes(void);

/* Bytes per block after a thread's first; the first is smaller. */
#define SP_STORE_BLOCK_BYTES       (2u << 20)
#define SP_STORE_FIRST_BLOCK_BYTES (256u << 10)

#endif
