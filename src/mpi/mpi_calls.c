#include "mpi/mpi_calls.h"
#include "mpi/peer_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sp_mpi_calls_on_;
sp_region_t sp_mpi_call_regions_[SP_CALL_COUNT];

static const char *const call_names[SP_CALL_COUNT] = {
    "MPI_Send",      "MPI_Recv",    "MPI_Isend",    "MPI_Irecv",  "MPI_Sendrecv",  "MPI_Wait",
    "MPI_Waitall",   "MPI_Waitany", "MPI_Bcast",    "MPI_Reduce", "MPI_Allreduce", "MPI_Gather",
    "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall", "MPI_Barrier",
    "MPI_Allgatherv",
    "MPI_Gatherv",
    "MPI_Scatterv",
    "MPI_Alltoallv",
    "MPI_Reduce_scatter",
    "MPI_Test",
    "MPI_Testall",
    "MPI_Testany",
    "MPI_Testsome",
    "MPI_Probe",
    "MPI_Iprobe",
    "MPI_Sendrecv_replace",
    "MPI_Put",
    "MPI_Get",
    "MPI_Accumulate",
    "MPI_Win_fence",
    "MPI_Win_lock",
    "MPI_Win_unlock",
    "MPI_File_open",
    "MPI_File_close",
    "MPI_File_read",
    "MPI_File_read_at",
    "MPI_File_read_all",
    "MPI_File_read_at_all",
    "MPI_File_read_shared",
    "MPI_File_read_ordered",
    "MPI_File_iread",
    "MPI_File_iread_at",
    "MPI_File_write",
    "MPI_File_write_at",
    "MPI_File_write_all",
    "MPI_File_write_at_all",
    "MPI_File_write_shared",
    "MPI_File_write_ordered",
    "MPI_File_iwrite",
    "MPI_File_iwrite_at"};

/* One cache line per counter: threads in different calls do not share one. */
static struct {
    int64_t bytes;
    char pad[64 - sizeof(int64_t)];
} counters[SP_CALL_COUNT];

static int session_recorded; /* this session's wrappers were on */

void sp_mpi_call_bytes(sp_mpi_call call, int64_t bytes) {
    if (bytes > 0) __atomic_fetch_add(&counters[call].bytes, bytes, __ATOMIC_RELAXED);
}

/* A yes/no variable: 1 on, 0 off, -1 unset or malformed. */
static int from_environment(const char *name) {
    const char *v = getenv(name);
    if (!v || !*v) return -1;
    static const char *const yes[] = {"1", "true", "yes", "on"}, *const no[] = {"0", "false", "no",
                                                                                "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) return 1;
        if (strcasecmp(v, no[i]) == 0) return 0;
    }
    fprintf(stderr,
            "scope-profiler: ignoring %s=\"%s\": expected 1 or 0 (also true/false, yes/no, "
            "on/off)\n",
            name, v);
    return -1;
}

void sp_mpi_calls_start(const sp_options *options) {
    int wanted = options && options->mpi_calls;
    int env = from_environment("SCOPE_PROFILER_MPI_CALLS");
    if (env >= 0) wanted = env;
    session_recorded = 0;
    for (int c = 0; c < SP_CALL_COUNT; c++)
        __atomic_store_n(&counters[c].bytes, 0, __ATOMIC_RELAXED);
    if (!wanted || !sp_is_active()) return;
    for (int c = 0; c < SP_CALL_COUNT; c++) {
        sp_mpi_call_regions_[c] = sp_region_at(call_names[c], NULL, 0);
        if (!sp_mpi_call_regions_[c]) return; /* out of memory: no MPI regions */
    }
    session_recorded = 1;
    /* the peer records for wait-state analysis (issue 25); SCOPE_PROFILER_MPI_PEERS=0: none */
    sp_peer_reset(from_environment("SCOPE_PROFILER_MPI_PEERS") != 0);
    __atomic_store_n(&sp_mpi_calls_on_, 1, __ATOMIC_RELEASE);
}

int sp_mpi_calls_stop(void) {
    __atomic_store_n(&sp_mpi_calls_on_, 0, __ATOMIC_RELAXED);
    return session_recorded;
}

const char *sp_mpi_call_name(sp_mpi_call call) {
    return call_names[call];
}

void sp_mpi_calls_forget_peers(void) {
    sp_peer_reset(0);
}

static int call_of(const char *name) {
    for (int c = 0; c < SP_CALL_COUNT; c++)
        if (strcmp(name, call_names[c]) == 0) return c;
    return -1;
}

void sp_mpi_calls_attach_bytes(sp_model *m) {
    if (!session_recorded) return;
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *row = &m->rows[i];
        int c = row->region < m->num_regions ? call_of(m->region_names[row->region]) : -1;
        if (c < 0) continue;
        row->has_message_bytes = 1;
        row->message_bytes = __atomic_load_n(&counters[c].bytes, __ATOMIC_RELAXED);
    }
}
