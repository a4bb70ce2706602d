/*
 * The profiling session: sp_setup() starts it, sp_finalize() ends it. The
 * steps of finalize are exposed so that the MPI library can put its own
 * gathering between them (stop, collect, write, end).
 */
#ifndef SP_RECORD_SESSION_H
#define SP_RECORD_SESSION_H

#include "common/visibility.h"
#include <stdio.h>

#include "format/atomic_file.h"
#include "format/writer.h"
#include "model/model.h"
#include "record/collect.h"
#include "record/config.h"

typedef enum sp_session_state {
    SP_SESSION_NONE = 0, /* never set up, or finalized */
    SP_SESSION_RECORDING,
    SP_SESSION_DISABLED,
    SP_SESSION_FINALIZING /* one sp_finalize owns the session until it ends */
} sp_session_state;

/* What finalize works on: the settings and this process's calls. */
typedef struct sp_session_data {
    sp_config config;
    int64_t start_ns;
    int64_t finalize_ns;
    sp_model model; /* rows of rank `rank` only, no metadata yet */
    sp_collect_report report;
    sp_target_id target; /* the output path at sp_setup: another run writing it is detected */
    int disabled;        /* the session was a disabled one: nothing to write */
    int keep_journal;    /* no profile was written: the journal stays for recover */
} sp_session_data;

SP_INTERNAL_API sp_session_state sp_internal_session_state(void);

/* Stops recording and collects the calls as rank `rank` into out (the
 * session stays set up until sp_internal_session_end()). Exactly one caller
 * wins (the state becomes SP_SESSION_FINALIZING atomically); any other gets
 * SP_ERR_NOT_ACTIVE and must not call sp_internal_session_end(). A disabled
 * session gives SP_OK with out->disabled set. */
SP_INTERNAL_API sp_status sp_internal_session_stop(uint32_t rank, sp_session_data *out);

/* Adds /metadata (rank 0's) and source texts to out->model. */
SP_INTERNAL_API sp_status sp_internal_session_describe(sp_session_data *data, int64_t mpi_size,
                                                       int64_t num_nodes);

/* Writes a model to the configured path; on failure tries a fallback path in
 * $TMPDIR so that the recorded data is not lost, and reports both on stderr.
 * If another process wrote the target during the run, the data goes beside it
 * and data->config.file_path (and sp_output_path()) name where. */
SP_INTERNAL_API sp_status sp_internal_session_write(sp_session_data *data, const sp_model *model);

/* Keeps the journal (finalize failed: no profile was written) and says on
 * stderr which `scope-profiler recover` command turns it into a profile. */
SP_INTERNAL_API void sp_internal_session_keep_journal(sp_session_data *data);

/* The write options of the session (compression). */
SP_INTERNAL_API sp_write_options sp_internal_write_options(const sp_session_data *data);

/* Records that the profile went to `path` instead of the configured one (takes it). */
SP_INTERNAL_API void sp_internal_session_moved(sp_session_data *data, char *path);

/* ${TMPDIR:-/tmp}/NAME.PID.h5: where a profile goes when its target fails (malloc'ed). */
SP_INTERNAL_API char *sp_internal_fallback_path(const char *path);

/* Prints the end-of-run summary of a written profile unless quiet, and hands
 * the results out when asked. Takes the model's contents. */
SP_INTERNAL_API sp_status sp_internal_session_report(sp_session_data *data, sp_model *model,
                                                     const sp_finalize_options *options);

/* sp_finalize() for this process alone (what it does without the MPI library). */
SP_INTERNAL_API sp_status sp_internal_finalize_serial(const sp_finalize_options *options);

/* The MPI library routes sp_finalize() through its own collective version. */
typedef sp_status (*sp_finalize_hook)(const sp_finalize_options *options);
SP_INTERNAL_API void sp_internal_set_finalize_hook(sp_finalize_hook hook);

/* The end-of-run table of a results object (what sp_finalize prints). */
SP_INTERNAL_API sp_status sp_internal_print_summary(const sp_results *results, FILE *out);

/* Nonzero when the MPI library routes sp_finalize (it cannot run from exit()). */
SP_INTERNAL_API int sp_internal_has_finalize_hook(void);

/* pthread_atfork: the session lock is held across fork(); the child
 * forgets the parent's session (it records nothing until its own sp_setup). */
void sp_internal_session_lock_for_fork(void);
void sp_internal_session_unlock_after_fork(void);
void sp_internal_session_forget_after_fork(void);

/* The MPI library tells the journal this process's rank (after sp_setup). */
SP_INTERNAL_API void sp_internal_journal_set_rank(int64_t rank, int64_t size);

/* scope-profiler run (src/preload/): a session the preload library starts
 * is provisional: the program's own sp_setup()/sp_mpi_setup() drops it
 * unwritten and starts its own (one session per process). */
SP_INTERNAL_API sp_status sp_internal_setup_provisional(const sp_options *options);
SP_INTERNAL_API int sp_internal_session_is_provisional(void);
SP_INTERNAL_API void sp_internal_session_yield_provisional(void);

/* Run at the start of every sp_finalize() while recording (the preload
 * library names the functions it recorded by address). */
SP_INTERNAL_API void sp_internal_set_before_finalize(void (*hook)(void));

/* Frees the data and returns to SP_SESSION_NONE. */
SP_INTERNAL_API void sp_internal_session_end(sp_session_data *data);

#endif
