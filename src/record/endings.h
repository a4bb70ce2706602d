/*
 * Endings other than sp_finalize (docs/recording.md, "How a run can end"):
 * exit() without finalize writes the profile; the signals batch systems send
 * before a kill mark the journal and then behave as the program had them
 * (its handler, ignored, or the default action); a forked child does not
 * record until it calls sp_setup itself.
 */
#ifndef SP_RECORD_ENDINGS_H
#define SP_RECORD_ENDINGS_H

/* At sp_setup: the exit and fork handlers (once per process), and, with a
 * journal, the signal handlers. */
void sp_endings_install(int journal);

/* At the end of a session: the program's signal handlers come back. */
void sp_endings_uninstall(void);

#endif
