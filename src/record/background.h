/*
 * One helper thread per process for slow work a recording thread should not
 * wait for (today: populating a thread's next block, record/store.c). It is
 * started by the first job, never by the hot path; it blocks every signal
 * (the program's handlers run on its own threads), and it ends when the
 * session ends or after a second without work, so that it never keeps a process
 * alive whose main thread called pthread_exit(). A child after fork() has no
 * helper until its first job.
 */
#ifndef SP_RECORD_BACKGROUND_H
#define SP_RECORD_BACKGROUND_H

typedef struct sp_background_job {
    void (*run)(struct sp_background_job *job); /* on the helper thread */
    struct sp_background_job *next;             /* the queue (the helper's lock) */
    int state;                                  /* idle, queued, running (the helper's lock) */
} sp_background_job;

/* Queues the job (it must be idle); 0 when there is no helper thread and none
 * could be started (then the job is not queued). */
int sp_background_submit(sp_background_job *job);

/* After it returns the job is neither queued nor running (a queued job is
 * taken off the queue, a running one is waited for). Not from job->run. */
void sp_background_cancel(sp_background_job *job);

/* The helper ends once its queue is empty (at the end of a session); a next
 * job starts it again. */
void sp_background_stop(void);

/* Nonzero when the job is queued or running. */
int sp_background_pending(sp_background_job *job);

/* pthread_atfork: the helper's lock is held across fork(); in the child the
 * queue is forgotten (its jobs' owners forget them too). */
void sp_background_lock_for_fork(void);
void sp_background_unlock_after_fork(void);
void sp_background_forget_after_fork(void);

#endif
