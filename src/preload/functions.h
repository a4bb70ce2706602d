/*
 * Functions compiled with -finstrument-functions as regions (scope-profiler
 * run --functions): __cyg_profile_func_enter/exit record by address; a
 * function is named (symbolize.h) the first time it is called. Throttling (TAU's rule): a function past
 * SCOPE_PROFILER_THROTTLE_CALLS calls on a thread (default 100,000) whose
 * calls average under SCOPE_PROFILER_THROTTLE_NS (default 1,000 ns) is from
 * then on only counted (calls and total time), and its region's name says
 * so. SCOPE_PROFILER_FUNCTIONS_INCLUDE / _EXCLUDE: ';'-separated globs.
 */
#ifndef SP_PRELOAD_FUNCTIONS_H
#define SP_PRELOAD_FUNCTIONS_H

/* Reads the settings and turns the hooks on (once, before the session). */
void sp_preload_functions_start(void);

/* Before finalize: throttled functions' names get their note; overflows are reported. */
void sp_preload_functions_name(void);

#endif
