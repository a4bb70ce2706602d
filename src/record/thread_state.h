/*
 * Per-thread recording buffers. Each thread owns one sp_thread: for every
 * region a chain of event chunks (16 bytes per call), carved from the
 * thread's blocks (record/store.h), and a stack of open calls. The hot path touches only its own
 * sp_thread, so it needs neither locks nor atomics. All sp_threads are linked in a process-wide
 * list, which sp_finalize() walks once the other threads are quiet.
 */
#ifndef SP_RECORD_THREAD_STATE_H
#define SP_RECORD_THREAD_STATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/journal_layout.h"

#include "scope_profiler.h"

/* One call: raw clock ticks. end == 0 marks a call still open, or dropped. */
typedef struct sp_event_slot {
    uint64_t start;
    uint64_t end;
} sp_event_slot;

/* Where the next call of a region goes (the hot part of a row). */
typedef struct sp_row_cursor {
    sp_event_slot *next;
    sp_event_slot *limit;
    sp_journal_chunk *chunk; /* the header of next's chunk: its calls check */
} sp_row_cursor;

/* The chunks of one region's calls on one thread, oldest first. The cursor
 * points into chunk[current]; chunks after it were reserved and are empty. */
typedef struct sp_row_chunks {
    sp_event_slot **chunk;
    uint32_t *chunk_capacity;
    uint32_t num_chunks;
    uint32_t max_chunks;
    uint32_t current;
    int discarding;     /* no memory: the cursor cycles through the thread's discard slots */
    uint64_t discarded; /* calls not stored before the last cycle began */
} sp_row_chunks;

/* Where calls go once the memory limit is reached: counted, not kept. */
#define SP_DISCARD_SLOTS 256u

struct sp_store_block;

typedef struct sp_frame {
    sp_event_slot *slot;
    sp_journal_chunk
        *chunk; /* slot's chunk header (a thread's unchecked_chunk for a discard slot) */
    sp_region_t region;
} sp_frame;

/* Stores a call's end and its share of the chunk's calls check, in the order
 * recover relies on: pending, end, check (docs/format.md); the same code as
 * the public header's inline path. */
static inline void sp_frame_end(const sp_frame *frame, uint64_t now) {
    sp_internal_hot_finish_((const sp_internal_hot_frame_ *)(const void *)frame, now);
}

/* Per-thread cache for the by-name calls: name pointer -> handle. */
typedef struct sp_name_cache_entry {
    const char *key;       /* the caller's pointer */
    const char *canonical; /* the registry's copy, to verify the content */
    sp_region_t region;
    /* a name shorter than 16 bytes, its terminator included, as two words and
     * the masks of its bytes (mask[0] == 0 for a longer name): verified with
     * two word loads (record/hot_path.c) */
    uint64_t word[2], mask[2];
} sp_name_cache_entry;

typedef struct sp_thread {
    /* hot: what the public header's inline path reads (sp_internal_hot_) */
    sp_row_cursor *cursors; /* indexed by handle; [0] unused */
    uint32_t num_cursors;
    uint32_t abi;        /* SP_INTERNAL_HOT_ABI_ */
    sp_frame *top;       /* the next free frame: sp_thread_depth() calls are open */
    sp_frame *stack_end; /* stack + its capacity */
    sp_frame *stack;
    /* cold */
    int busy;            /* inside an out-of-line recording call (record/quiesce.h) */
    sp_row_chunks *rows; /* parallel to cursors */
    sp_name_cache_entry *name_cache;
    uint32_t name_cache_capacity;
    uint32_t name_cache_used;
    uint64_t dropped_calls; /* calls discarded by a mismatched sp_end */
    uint32_t index;         /* order of the thread's first call, from 0 */
    pid_t native_id;
    pthread_t handle;
    int exited;          /* the thread has ended; its buffers wait for finalize */
    int in_session;      /* it recorded in this session, so it has an index */
    int64_t exit_cpu_ns; /* its CPU time at exit */
    char name[64];       /* set by sp_set_thread_name, else the pthread name at exit or finalize */
    int named;           /* sp_set_thread_name chose the name: keep it */
    struct sp_store_block *blocks; /* record/store.h */
    uint32_t num_blocks;
    uint32_t max_blocks;
    struct sp_store_spare *spare; /* record/store.c: the next block, populated ahead */
    int pooled_block;             /* its first block was an ended thread's (record/store.c) */
    sp_internal_tls_ *tls;        /* the thread's sp_internal_tls_v2_ (the inline path's word) */
    struct sp_thread *next;
    sp_event_slot discard[SP_DISCARD_SLOTS];
    sp_journal_chunk unchecked_chunk; /* the check that discard slots' calls update: never read */
} sp_thread;

/* This thread's state (NULL until its first call). */
extern __thread sp_thread *sp_current_thread __attribute__((tls_model("initial-exec")));

/* The hot part above is what the public header's inline path reads as an
 * sp_internal_hot_ (src/record/README.md): the same layout, field by field. */
#define SP_SAME_FIELD_(a, fa, b, fb)                                                               \
    _Static_assert(offsetof(a, fa) == offsetof(b, fb) &&                                           \
                       sizeof(((a *)0)->fa) == sizeof(((b *)0)->fb),                               \
                   #a "." #fa " is not " #b "." #fb)
SP_SAME_FIELD_(sp_thread, cursors, sp_internal_hot_, cursors);
SP_SAME_FIELD_(sp_thread, num_cursors, sp_internal_hot_, num_cursors);
SP_SAME_FIELD_(sp_thread, abi, sp_internal_hot_, abi);
SP_SAME_FIELD_(sp_thread, top, sp_internal_hot_, top);
SP_SAME_FIELD_(sp_thread, stack_end, sp_internal_hot_, stack_end);
SP_SAME_FIELD_(sp_thread, stack, sp_internal_hot_, stack);
SP_SAME_FIELD_(sp_row_cursor, next, sp_internal_hot_cursor_, next);
SP_SAME_FIELD_(sp_row_cursor, limit, sp_internal_hot_cursor_, limit);
SP_SAME_FIELD_(sp_row_cursor, chunk, sp_internal_hot_cursor_, chunk);
SP_SAME_FIELD_(sp_frame, slot, sp_internal_hot_frame_, slot);
SP_SAME_FIELD_(sp_frame, chunk, sp_internal_hot_frame_, chunk);
SP_SAME_FIELD_(sp_frame, region, sp_internal_hot_frame_, region);
SP_SAME_FIELD_(sp_event_slot, start, sp_internal_hot_call_, start);
SP_SAME_FIELD_(sp_event_slot, end, sp_internal_hot_call_, end);
SP_SAME_FIELD_(sp_journal_chunk, calls_check, sp_internal_hot_chunk_, calls_check);
SP_SAME_FIELD_(sp_journal_chunk, pending, sp_internal_hot_chunk_, pending);
_Static_assert(sizeof(sp_row_cursor) == sizeof(sp_internal_hot_cursor_) &&
                   sizeof(sp_frame) == sizeof(sp_internal_hot_frame_) &&
                   sizeof(sp_journal_chunk) == sizeof(sp_internal_hot_chunk_),
               "the inline path's arrays have the library's strides");

/* The number of open calls on t's stack, and setting it (frames below stay). */
static inline uint32_t sp_thread_depth(const sp_thread *t) {
    return (uint32_t)(t->top - t->stack);
}
static inline void sp_thread_set_depth(sp_thread *t, uint32_t depth) {
    t->top = t->stack + depth;
}
static inline uint32_t sp_thread_stack_capacity(const sp_thread *t) {
    return (uint32_t)(t->stack_end - t->stack);
}

/* Lets the calling thread record inline: called inside an out-of-line
 * recording call (busy, the session active), so that finalize's first wait
 * covers it (record/quiesce.h); only when the session records inline. */
void sp_thread_publish(sp_thread *t);

/* Withdraws t's inline path (finalize, fork, reset): its calls go out of line. */
static inline void sp_thread_unpublish(sp_thread *t) {
    if (t->tls)
        __atomic_store_n(&t->tls->hot, (sp_internal_hot_ *)&sp_internal_hot_off_v2_,
                         __ATOMIC_RELAXED);
}

/* Creates this thread's state and links it into the list; NULL if out of memory. */
sp_thread *sp_thread_attach(void);

/* Makes the thread ready to record `region`: cursors long enough, a chunk with room.
 * Returns 0 if out of memory (the call is then not recorded). */
int sp_thread_make_room(sp_thread *t, sp_region_t region);

/* Allocates and touches room for `calls` more calls of region, so that
 * recording them neither allocates nor page-faults; 0 if out of memory. */
int sp_thread_reserve(sp_thread *t, sp_region_t region, uint64_t calls);

/* Slots in use in chunk c of a region's row (full, partly used, or reserved). */
size_t sp_row_chunk_used(const sp_thread *t, sp_region_t region, uint32_t c);

/* Calls of the region that were counted but not stored (memory limit, out of memory). */
uint64_t sp_row_not_stored(const sp_thread *t, sp_region_t region);

/* In a child after fork(): drops every thread state but the caller's, and
 * the caller's buffers, without touching the parent's journal. */
void sp_thread_forget_after_fork(void);

/* pthread_atfork: the list's lock is held across fork(). */
void sp_thread_lock_for_fork(void);
void sp_thread_unlock_after_fork(void);

/* Grows the open-call stack by one frame at least; 0 if out of memory. */
int sp_thread_grow_stack(sp_thread *t);

/* The head of the list of all thread states (for finalize, threads quiet). */
sp_thread *sp_thread_list(void);

/* The list with its lock held, for walking it while threads attach; then unlock. */
sp_thread *sp_thread_list_locked(void);
void sp_thread_list_unlock(void);

/* Frees the buffers of every thread (after finalize collected them); exited
 * threads' states go entirely, live ones are reset for a next session. */
void sp_thread_reset_all(void);

/* The calling thread started the session: other threads' top-level calls
 * belong under its open calls (fork-join: OpenMP, worker pools). */
void sp_thread_note_session_owner(void);

/* Nonzero when t is the thread that started the session. */
int sp_thread_is_session_owner(const sp_thread *t);

/* Number of threads attached so far (in this session). */
uint32_t sp_thread_count(void);

#endif
