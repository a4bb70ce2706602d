/*
 * The session's root region, "scope_profiler.session": one call from
 * sp_setup() to sp_finalize() on the thread that called sp_setup(), as the
 * Python package's ProfileManager.session() records it. It gives "% session"
 * its denominator and every call tree of that thread a single root.
 */
#ifndef SP_RECORD_SESSION_ROOT_H
#define SP_RECORD_SESSION_ROOT_H

#define SP_SESSION_ROOT_NAME "scope_profiler.session"
/* What a region the user names SP_SESSION_ROOT_NAME is recorded as. */
#define SP_SESSION_USER_NAME "scope_profiler.session (user region)"

/* Opens the root call on the calling thread (recording must be active). */
void sp_session_root_open(void);

/* Ends the root call now and takes it off its thread's stack, from any thread
 * (the others are quiet at finalize). Regions the program left open above it
 * stay open, so that finalize reports them. */
void sp_session_root_close(void);

#endif
