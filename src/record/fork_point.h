/*
 * Fork points (docs/parallel.md §1): where a thread's top-level calls belong.
 * A thread started by pthread_create (std::thread) belongs under what its
 * creator had open at creation; an OpenMP worker under what the encountering
 * thread had open when the parallel region began. Both moments are caught by
 * interposing the entry points (pthread_create and libgomp's GOMP_parallel
 * family, record/fork_point.c): the forking thread stamps the time, and the
 * started thread notes (since, parent thread, fork time) before it runs the
 * user's function. The hot path is untouched.
 */
#ifndef SP_RECORD_FORK_POINT_H
#define SP_RECORD_FORK_POINT_H

#include <stdint.h>

#include "model/model.h"
#include "record/aggregate.h"
#include "record/thread_state.h"

/* Who forks and when, taken on the forking thread. */
typedef struct sp_fork_origin {
    sp_thread *parent;
    uint64_t ticks;
    sp_agg_origin agg; /* aggregate mode: the forking thread's open calls */
} sp_fork_origin;

/* On the forking thread: fills o; 0 when nothing is recorded (then nothing to note). */
int sp_fork_take_origin(sp_fork_origin *o);

/* On a started thread (worker of a team, new pthread) before the user's code runs: notes
 * that its top-level calls from now on belong under what o's thread had open at o's time.
 * Nothing on o's own thread. Also the OMPT tool's entry (preload/ompt_tool.c). */
void sp_fork_note_start(const sp_fork_origin *o);

/* Fills m->forks from the fork points noted for the collected threads
 * (threads[i] has thread id i on `rank`); points whose thread or parent
 * recorded no call are left out. */
sp_status sp_fork_collect(sp_model *m, sp_thread *const *threads, uint32_t n, uint32_t rank);

/* Forgets every noted fork point (the session ended, or in a child after fork()). */
void sp_fork_reset(void);

/* In a child after fork(): drops the notes without taking the lock. */
void sp_fork_forget_after_fork(void);

#endif
