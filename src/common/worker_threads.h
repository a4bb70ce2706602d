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

/* From now on sp_worker_threads() is 1: for the finalize of an exit
 * handler, where no thread may start (format/chunk_compress.h says why). */
void sp_worker_threads_caller_only(void);

#endif
