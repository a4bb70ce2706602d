/*
 * The profiling session: sp_setup() starts it, sp_finalize() ends it. The
 * steps of finalize are exposed so that the MPI library can put its own
 * gathering between them (stop, collect, write, end).
 */
#ifndef SP_RECORD_SESSION_H
#define SP_RECORD_SESSION_H

#include "model/model.h"
#include "record/collect.h"
#include "record/config.h"

#if defined(__GNUC__)
#define SP_INTERNAL_API __attribute__((visibility("default")))
#else
#define SP_INTERNAL_API
#endif

typedef enum sp_session_state {
    SP_SESSION_NONE = 0, /* never set up, or finalized */
    SP_SESSION_RECORDING,
    SP_SESSION_DISABLED
} sp_session_state;

/* What finalize works on: the settings and this process's calls. */
typedef struct sp_session_data {
    sp_config config;
    int64_t start_ns;
    int64_t finalize_ns;
    sp_model model; /* rows of rank `rank` only, no metadata yet */
    sp_collect_report report;
} sp_session_data;

SP_INTERNAL_API sp_session_state sp_internal_session_state(void);

/* Stops recording and collects the calls as rank `rank` into out (the
 * session stays set up until sp_internal_session_end()). */
SP_INTERNAL_API sp_status sp_internal_session_stop(uint32_t rank, sp_session_data *out);

/* Adds /metadata (rank 0's) and source texts to out->model. */
SP_INTERNAL_API sp_status sp_internal_session_describe(sp_session_data *data, int64_t mpi_size,
                                                       int64_t num_nodes);

/* Writes a model to the configured path; on failure tries a fallback path in
 * $TMPDIR so that the recorded data is not lost, and reports both on stderr. */
SP_INTERNAL_API sp_status sp_internal_session_write(const sp_session_data *data,
                                                    const sp_model *model);

/* Prints the end-of-run summary of a written profile unless quiet, and hands
 * the results out when asked. Takes the model's contents. */
SP_INTERNAL_API sp_status sp_internal_session_report(sp_session_data *data, sp_model *model,
                                                     const sp_finalize_options *options);

/* Frees the data and returns to SP_SESSION_NONE. */
SP_INTERNAL_API void sp_internal_session_end(sp_session_data *data);

#endif
