/*
 * How many threads the analysis may use for one job (decoding a column's
 * chunks, merging a rank's calls while another thread visits them).
 * SCOPE_PROFILER_THREADS=N asks for N (1 = the caller's thread only; at
 * most SP_MAX_WORKER_THREADS); unset or not a positive number, one per
 * online core up to that limit.
 */
#ifndef SP_COMMON_WORKER_THREADS_H
#define SP_COMMON_WORKER_THREADS_H

#define SP_MAX_WORKER_THREADS 8

int sp_worker_threads(void);

/* From now on no helper thread starts: sp_worker_threads() is 1 and
 * sp_worker_threads_may_start() 0 (the writer's chunk compression, the
 * reader's decoding and the call merge all obey it). For the finalize of
 * an exit handler: when the main thread ended with pthread_exit(), glibc
 * runs exit() on the last thread to end with the thread count already at
 * zero, so a thread started then would run exit() again when it ends and
 * cut the finalize short. */
void sp_worker_threads_caller_only(void);
int sp_worker_threads_may_start(void);

#endif
