/*
 * MPI calls as regions (docs/parallel.md §5): the switch the PMPI wrappers
 * test, the regions they record and the bytes they count. Off by default;
 * on from the end of sp_mpi_setup() (options->mpi_calls or
 * SCOPE_PROFILER_MPI_CALLS) until finalize starts, so that the library's own
 * traffic (clock alignment, gathering the profile) is never recorded.
 */
#ifndef SP_MPI_MPI_CALLS_H
#define SP_MPI_MPI_CALLS_H

#include <scope_profiler.h>
#include <stdint.h>

#include "model/model.h"

typedef enum sp_mpi_call {
    SP_CALL_SEND,
    SP_CALL_RECV,
    SP_CALL_ISEND,
    SP_CALL_IRECV,
    SP_CALL_SENDRECV,
    SP_CALL_WAIT,
    SP_CALL_WAITALL,
    SP_CALL_WAITANY,
    SP_CALL_BCAST,
    SP_CALL_REDUCE,
    SP_CALL_ALLREDUCE,
    SP_CALL_GATHER,
    SP_CALL_ALLGATHER,
    SP_CALL_SCATTER,
    SP_CALL_ALLTOALL,
    SP_CALL_BARRIER,
    /* issue 24 */
    SP_CALL_ALLGATHERV,
    SP_CALL_GATHERV,
    SP_CALL_SCATTERV,
    SP_CALL_ALLTOALLV,
    SP_CALL_REDUCE_SCATTER,
    SP_CALL_TEST,
    SP_CALL_TESTALL,
    SP_CALL_TESTANY,
    SP_CALL_TESTSOME,
    SP_CALL_PROBE,
    SP_CALL_IPROBE,
    SP_CALL_SENDRECV_REPLACE,
    SP_CALL_PUT,
    SP_CALL_GET,
    SP_CALL_ACCUMULATE,
    SP_CALL_WIN_FENCE,
    SP_CALL_WIN_LOCK,
    SP_CALL_WIN_UNLOCK,
    SP_CALL_FILE_OPEN,
    SP_CALL_FILE_CLOSE,
    SP_CALL_FILE_READ,
    SP_CALL_FILE_READ_AT,
    SP_CALL_FILE_READ_ALL,
    SP_CALL_FILE_READ_AT_ALL,
    SP_CALL_FILE_READ_SHARED,
    SP_CALL_FILE_READ_ORDERED,
    SP_CALL_FILE_IREAD,
    SP_CALL_FILE_IREAD_AT,
    SP_CALL_FILE_WRITE,
    SP_CALL_FILE_WRITE_AT,
    SP_CALL_FILE_WRITE_ALL,
    SP_CALL_FILE_WRITE_AT_ALL,
    SP_CALL_FILE_WRITE_SHARED,
    SP_CALL_FILE_WRITE_ORDERED,
    SP_CALL_FILE_IWRITE,
    SP_CALL_FILE_IWRITE_AT,
    SP_CALL_COUNT
} sp_mpi_call;

/* Exported (the Fortran wrappers, libscope_profiler_preload_fortran, share them). */
#define SP_MPI_SHARED __attribute__((visibility("default")))

/* Nonzero while the wrappers record; read on every wrapped call. */
SP_MPI_SHARED extern int sp_mpi_calls_on_;
/* The wrapped calls' region handles, interned when recording starts. */
SP_MPI_SHARED extern sp_region_t sp_mpi_call_regions_[SP_CALL_COUNT];

/* Acquire: a thread that sees the switch on also sees the region handles
 * (a plain load on x86). */
static inline int sp_mpi_calls_on(void) {
    return __builtin_expect(__atomic_load_n(&sp_mpi_calls_on_, __ATOMIC_ACQUIRE), 0);
}

/* Adds a call's bytes to its region's count on this rank. */
SP_MPI_SHARED void sp_mpi_call_bytes(sp_mpi_call call, int64_t bytes);

/* After MPI_Init: scope-profiler run's session (mpi_session.c). */
SP_MPI_SHARED void sp_mpi_run_attach(void);

/* Before the real MPI_Finalize: the profile of a session still recording. */
SP_MPI_SHARED void sp_mpi_before_finalize(void);

/* At the end of sp_mpi_setup(): starts recording if the option or the
 * environment asks for it (the environment wins) and a session records. */
void sp_mpi_calls_start(const sp_options *options);

/* At the start of finalize: stops recording. Returns whether this session
 * recorded MPI calls. */
int sp_mpi_calls_stop(void);

/* "MPI_Send" and so on. */
const char *sp_mpi_call_name(sp_mpi_call call);

/* After finalize wrote the peer records: frees them (mpi/peer_records.h). */
void sp_mpi_calls_forget_peers(void);

/* After the session stopped: gives the rows of the wrapped calls' regions
 * their byte counts (only when this session recorded MPI calls). */
void sp_mpi_calls_attach_bytes(sp_model *m);

#endif
