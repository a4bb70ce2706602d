/*
 * What wait-state matching needs from each MPI call (docs/format.md,
 * /scope_profiler_c/mpi_calls; issue 25): the peer in MPI_COMM_WORLD
 * numbering, the tag, the communicator, the bytes, the request a
 * non-blocking call created or a Wait/Test completed, and a collective's
 * sequence number on its communicator. The wrappers (C, and the Fortran
 * ones of fortran_calls.c, another library, through the exported functions)
 * append one record per call to a rank-wide side buffer, with the calling
 * thread's OS id: every thread records under MPI_THREAD_SERIALIZED or
 * MULTIPLE, else only the thread that started recording. The hot path is
 * not involved. The k-th record of a call on a thread belongs to the k-th
 * event of that call's region on that thread.
 */
#ifndef SP_MPI_PEER_RECORDS_H
#define SP_MPI_PEER_RECORDS_H

#include <mpi.h>
#include <stdint.h>

#include "mpi/mpi_calls.h"

enum { SP_PEER_NONE = -1, SP_PEER_ANY = -2 };

/* One call, 32 bytes. Which fields mean what depends on the call
 * (docs/format.md); the writer turns them into the file's columns. */
typedef struct sp_peer_record {
    int64_t bytes; /* this call's bytes, the wrappers' rule */
    union {
        int64_t aux; /* Isend/Irecv: request serial; Wait/Test*: first completion; collective:
                        sequence */
        struct {     /* Recv/Sendrecv(_replace): the status's source (world) and tag */
            int32_t source, source_tag;
        };
    };
    int32_t peer; /* world rank: destination, requested source, or root; -1 none, -2 any */
    int32_t tag;  /* send or requested tag; -1 none, -2 MPI_ANY_TAG; Wait/Test*: completions */
    int32_t comm; /* this rank's communicator id, -1 none */
    uint8_t call; /* sp_mpi_call */
} sp_peer_record;

/* The calls whose record holds a status (source, source_tag), and the
 * Wait/Test calls (tag: how many requests they completed). */
static inline int sp_peer_receives(int call) {
    return call == SP_CALL_RECV || call == SP_CALL_SENDRECV || call == SP_CALL_SENDRECV_REPLACE;
}
static inline int sp_peer_completes(int call) {
    return call == SP_CALL_WAIT || call == SP_CALL_WAITALL || call == SP_CALL_WAITANY ||
           call == SP_CALL_TEST || call == SP_CALL_TESTALL || call == SP_CALL_TESTANY ||
           call == SP_CALL_TESTSOME;
}

/* A request a Wait/Test completed, with the status of a receive. */
typedef struct sp_peer_completion {
    int64_t request;
    int32_t source; /* world rank; -1 for a send's request */
    int32_t tag;
} sp_peer_completion;

/* A communicator this rank used: its members in MPI_COMM_WORLD numbering. */
typedef struct sp_peer_comm {
    MPI_Comm handle; /* MPI_COMM_NULL once freed */
    int32_t size;
    int32_t *world; /* size entries */
    int64_t collectives;
} sp_peer_comm;

/* Whether this thread records peer data. */
SP_MPI_SHARED int sp_peer_on(void);

/* At recording start and after finalize. */
void sp_peer_reset(int on);

/* The communicator's id (numbered at first use; MPI_COMM_WORLD is 0), -1 if none. */
int32_t sp_peer_comm_id(MPI_Comm comm);
/* `rank` of communicator `id` in MPI_COMM_WORLD numbering (special values kept). */
SP_MPI_SHARED int32_t sp_peer_world(int32_t id, int rank);

/* Appends a record; returns it (NULL when out of memory: peer data then stops). */
SP_MPI_SHARED sp_peer_record *sp_peer_add(sp_mpi_call call, MPI_Comm comm, int32_t peer,
                                          int32_t tag, int64_t bytes);
/* A collective on comm: its sequence number there, and the root's world rank (or -1). */
SP_MPI_SHARED void sp_peer_collective(sp_mpi_call call, MPI_Comm comm, int root, int64_t bytes);

/* A new request (Isend/Irecv): its serial, remembered for the wait. */
SP_MPI_SHARED int64_t sp_peer_request(MPI_Request request, int32_t comm);
/* Under MPI_THREAD_MULTIPLE the calls below need the mutex held (a Wait's
 * completions must stay together); sp_peer_lock is a no-op otherwise. */
SP_MPI_SHARED void sp_peer_lock(void);
SP_MPI_SHARED void sp_peer_unlock(void);
/* The serial of a pending request (0 when unknown), its communicator and
 * its key, for sp_peer_drop once the request completed. */
int64_t sp_peer_find(MPI_Request request, int32_t *comm, uint64_t *key);
/* Forgets the request `serial` (not a newer one that reuses the handle). */
void sp_peer_drop(uint64_t key, int64_t serial);
/* Appends a completion to the record `rec` (whose completions are the last ones added). */
void sp_peer_complete(sp_peer_record *rec, int64_t serial, int32_t comm, const MPI_Status *status);

/* MPI_Comm_free (C or Fortran): a later communicator may reuse the handle. */
SP_MPI_SHARED void sp_peer_forget_comm(MPI_Comm comm);

/* The bytes the peer data holds now (bench_pmpi). */
SP_MPI_SHARED uint64_t sp_peer_memory(void);

/* What finalize writes (valid until sp_peer_reset). */
typedef struct sp_peer_data {
    const sp_peer_record *records;
    const int32_t *threads; /* [num_records]: the OS id of the thread that made each */
    uint64_t num_records;
    const sp_peer_completion *completions;
    uint64_t num_completions;
    const sp_peer_comm *comms;
    int32_t num_comms;
    int complete; /* 0: memory ran out, the records stop early */
} sp_peer_data;
sp_peer_data sp_peer_data_get(void);

#endif
