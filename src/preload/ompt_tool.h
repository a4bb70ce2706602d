/*
 * OpenMP without annotations (scope-profiler run, docs/run.md § OpenMP):
 * an OMPT tool (OpenMP 5.0 tool interface; LLVM's libomp has it, GCC's
 * libgomp does not) that records each parallel construct as
 * `omp parallel @ FUNCTION` on the encountering thread, each thread's part
 * of it as `omp implicit task @ FUNCTION` (up to its join barrier) under it,
 * and explicit and worksharing barrier waits as `omp barrier wait`. Workers
 * note their fork point, so their tasks sit under the parallel region that
 * forked them. SCOPE_PROFILER_RUN_OPENMP=0 (run --no-openmp) turns it off.
 */
#ifndef SP_PRELOAD_OMPT_TOOL_H
#define SP_PRELOAD_OMPT_TOOL_H

/* Before finalize: one stderr line if constructs were left out (more than the table holds). */
void sp_preload_ompt_report(void);

#endif
