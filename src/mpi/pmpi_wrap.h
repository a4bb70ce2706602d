/*
 * What the PMPI wrappers share (pmpi_calls.c, pmpi_more_calls.c,
 * fortran_calls.c): the bytes a call moves and the wrapper macro. Off, a
 * wrapper is one load and a predictable branch, then a tail call of the PMPI
 * function: the recording path is a separate function so that the off path
 * saves no registers.
 */
#ifndef SP_MPI_PMPI_WRAP_H
#define SP_MPI_PMPI_WRAP_H

#include <mpi.h>

#include <stdint.h>

#include "mpi/mpi_calls.h"
#include "mpi/peer_records.h"

static inline int64_t bytes_of(int count, MPI_Datatype type) {
    int size = 0;
    if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0) return 0;
    return (int64_t)count * size;
}

static inline int64_t comm_size(MPI_Comm comm) {
    int size = 0;
    return PMPI_Comm_size(comm, &size) == MPI_SUCCESS ? size : 0;
}

/* With MPI_IN_PLACE the ignored arguments may be anything: the rank's block
 * is then described by the other buffer's arguments. */
static inline int64_t block_bytes(const void *buf, int count, MPI_Datatype type, int other_count,
                                  MPI_Datatype other_type) {
    return buf == MPI_IN_PLACE ? bytes_of(other_count, other_type) : bytes_of(count, type);
}

/* Defines the wrapper `name` (params/args in parentheses) and its timed path. */
#define SP_WRAPPER(name, call, bytes, params, args)                                                \
    __attribute__((noinline)) static int timed_##name params {                                     \
        sp_mpi_call_bytes(call, bytes);                                                            \
        sp_begin(sp_mpi_call_regions_[call]);                                                      \
        int rc = P##name args;                                                                     \
        sp_end_at(sp_mpi_call_regions_[call], __FILE__, __LINE__);                                 \
        return rc;                                                                                 \
    }                                                                                              \
    int name params {                                                                              \
        if (!sp_mpi_calls_on()) return P##name args;                                               \
        return timed_##name args;                                                                  \
    }

static inline int64_t comm_rank(MPI_Comm comm) {
    int rank = 0;
    return PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS ? rank : 0;
}

/* The sum of counts[0..comm size) times the type's size. */
static inline int64_t counts_bytes(const int counts[], MPI_Datatype type, MPI_Comm comm) {
    int64_t n = comm_size(comm), total = 0;
    for (int64_t i = 0; counts && i < n; i++)
        total += counts[i] > 0 ? counts[i] : 0;
    return total > INT32_MAX ? bytes_of(1, type) * total : bytes_of((int)total, type);
}

/* What the wrappers of pmpi_calls.c and pmpi_more_calls.c share. */
#define SP_BEGIN(call) sp_begin(sp_mpi_call_regions_[call])
#define SP_END(call)   sp_end_at(sp_mpi_call_regions_[call], __FILE__, __LINE__)

/* The public wrapper: off, a tail call of the PMPI function. */
#define SP_PUBLIC(name, params, args)                                                              \
    int name params {                                                                              \
        if (!sp_mpi_calls_on()) return P##name args;                                               \
        return timed_##name args;                                                                  \
    }

/* A collective: counted, its peer record (mpi/peer_records.h), timed. */
#define SP_COLLECTIVE(name, call, bytes, root, params, args)                                       \
    __attribute__((noinline)) static int timed_##name params {                                     \
        int64_t b = bytes;                                                                         \
        sp_mpi_call_bytes(call, b);                                                                \
        if (sp_peer_on()) sp_peer_collective(call, comm, root, b);                                 \
        SP_BEGIN(call);                                                                            \
        int rc = P##name args;                                                                     \
        SP_END(call);                                                                              \
        return rc;                                                                                 \
    }                                                                                              \
    SP_PUBLIC(name, params, args)

#endif
