/*
 * The Fortran bindings of the wrapped MPI calls (Open MPI's, as Debian
 * ships them; docs/run.md lists what is covered). mpif.h and `use mpi`
 * call mpi_NAME_ (libmpi_mpifh), `use mpi_f08` calls mpi_NAME_f08_
 * (libmpi_usempif08); neither goes through the C MPI_NAME, so each is wrapped
 * here and forwards to its profiling twin (pmpi_NAME_, pmpi_NAME_f08_),
 * looked up when first called: this library does not link the Fortran MPI
 * libraries, and a C program never loads them. Every argument is passed by
 * reference; handles are Fortran integers (f08's TYPE(MPI_Comm) and the like
 * hold one), converted with MPI_*_f2c only to count bytes, which follow the C
 * wrappers (pmpi_calls.c, pmpi_more_calls.c).
 *
 * These wrappers make libscope_profiler_preload_fortran, which scope-profiler
 * run preloads and nobody links: a program linked with a library defining
 * mpi_init_f08_ and the like before the MPI libraries would have the linker
 * (--as-needed) drop the real Fortran MPI library, which they forward to.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/pmpi_wrap.h"

typedef MPI_Fint *F;
typedef void *B; /* a choice buffer */

/* The profiling entry point `name` of the Fortran library in this process. */
static void *resolve(const char *name) {
    void *p = dlsym(RTLD_DEFAULT, name);
    if (!p) {
        fprintf(stderr,
                "scope-profiler: %s is missing from this process's MPI Fortran library; the "
                "MPI call wrappers only match Open MPI (see docs/run.md)\n",
                name);
        abort();
    }
    return p;
}

/* Open MPI's MPI_IN_PLACE in Fortran is the address of a common block, one
 * per name mangling. */
static int in_place(const void *buf) {
    static void *a, *b;
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        a = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
        b = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place");
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    return buf && (buf == a || buf == b);
}

static int64_t fbytes(const MPI_Fint *count, const MPI_Fint *type) {
    return count && type ? bytes_of(*count, PMPI_Type_f2c(*type)) : 0;
}

static MPI_Comm fcomm(const MPI_Fint *comm) {
    return PMPI_Comm_f2c(*comm);
}

static int64_t fblock(const void *buf, F count, F type, F other_count, F other_type) {
    return in_place(buf) ? fbytes(other_count, other_type) : fbytes(count, type);
}

static int64_t fcounts(const MPI_Fint *counts, F type, F comm) {
    int64_t n = comm_size(fcomm(comm)), total = 0;
    for (int64_t i = 0; counts && i < n; i++)
        total += counts[i] > 0 ? counts[i] : 0;
    int size = 0;
    PMPI_Type_size(PMPI_Type_f2c(*type), &size);
    return size > 0 ? total * size : 0;
}

static int64_t fone_of(const MPI_Fint *counts, F type, F comm) {
    return counts ? bytes_of(counts[comm_rank(fcomm(comm))], PMPI_Type_f2c(*type)) : 0;
}

#define SP_FORTRAN_ONE(sym, pmpi, call, bytes, params, args)                                       \
    __attribute__((visibility("default"))) void sym params;                                        \
    void sym params {                                                                              \
        static void(*real) params;                                                                 \
        void(*fn) params = __atomic_load_n(&real, __ATOMIC_RELAXED);                               \
        if (!fn) {                                                                                 \
            *(void **)&fn = resolve(pmpi);                                                         \
            __atomic_store_n(&real, fn, __ATOMIC_RELAXED);                                         \
        }                                                                                          \
        if (!sp_mpi_calls_on()) {                                                                  \
            fn args;                                                                               \
            return;                                                                                \
        }                                                                                          \
        sp_mpi_call_bytes(call, bytes);                                                            \
        sp_begin(sp_mpi_call_regions_[call]);                                                      \
        fn args;                                                                                   \
        sp_end_at(sp_mpi_call_regions_[call], __FILE__, __LINE__);                                 \
    }

/* mpif.h / `use mpi` (gfortran's mangling) and `use mpi_f08`. */
#define SP_FORTRAN(lname, call, bytes, params, args)                                               \
    SP_FORTRAN_ONE(mpi_##lname##_, "pmpi_" #lname "_", call, bytes, params, args)                  \
    SP_FORTRAN_ONE(mpi_##lname##_f08_, "pmpi_" #lname "_f08_", call, bytes, params, args)

SP_FORTRAN(send, SP_CALL_SEND, fbytes(count, type),
           (B buf, F count, F type, F dest, F tag, F comm, F ierr),
           (buf, count, type, dest, tag, comm, ierr))
SP_FORTRAN(recv, SP_CALL_RECV, fbytes(count, type),
           (B buf, F count, F type, F src, F tag, F comm, F status, F ierr),
           (buf, count, type, src, tag, comm, status, ierr))
SP_FORTRAN(isend, SP_CALL_ISEND, fbytes(count, type),
           (B buf, F count, F type, F dest, F tag, F comm, F req, F ierr),
           (buf, count, type, dest, tag, comm, req, ierr))
SP_FORTRAN(irecv, SP_CALL_IRECV, fbytes(count, type),
           (B buf, F count, F type, F src, F tag, F comm, F req, F ierr),
           (buf, count, type, src, tag, comm, req, ierr))
SP_FORTRAN(sendrecv, SP_CALL_SENDRECV, fbytes(scount, stype) + fbytes(rcount, rtype),
           (B sbuf, F scount, F stype, F dest, F stag, B rbuf, F rcount, F rtype, F src, F rtag,
            F comm, F status, F ierr),
           (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status, ierr))
SP_FORTRAN(wait, SP_CALL_WAIT, 0, (F req, F status, F ierr), (req, status, ierr))
SP_FORTRAN(waitall, SP_CALL_WAITALL, 0, (F count, F reqs, F statuses, F ierr),
           (count, reqs, statuses, ierr))
SP_FORTRAN(waitany, SP_CALL_WAITANY, 0, (F count, F reqs, F index, F status, F ierr),
           (count, reqs, index, status, ierr))
SP_FORTRAN(bcast, SP_CALL_BCAST, fbytes(count, type),
           (B buf, F count, F type, F root, F comm, F ierr), (buf, count, type, root, comm, ierr))
SP_FORTRAN(reduce, SP_CALL_REDUCE, fbytes(count, type),
           (B sbuf, B rbuf, F count, F type, F op, F root, F comm, F ierr),
           (sbuf, rbuf, count, type, op, root, comm, ierr))
SP_FORTRAN(allreduce, SP_CALL_ALLREDUCE, fbytes(count, type),
           (B sbuf, B rbuf, F count, F type, F op, F comm, F ierr),
           (sbuf, rbuf, count, type, op, comm, ierr))
SP_FORTRAN(gather, SP_CALL_GATHER, fblock(sbuf, scount, stype, rcount, rtype),
           (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F root, F comm, F ierr),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN(allgather, SP_CALL_ALLGATHER, fblock(sbuf, scount, stype, rcount, rtype),
           (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F comm, F ierr),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr))
SP_FORTRAN(scatter, SP_CALL_SCATTER, fblock(rbuf, rcount, rtype, scount, stype),
           (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F root, F comm, F ierr),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN(alltoall, SP_CALL_ALLTOALL,
           fblock(sbuf, scount, stype, rcount, rtype) * comm_size(fcomm(comm)),
           (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F comm, F ierr),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr))
SP_FORTRAN(barrier, SP_CALL_BARRIER, 0, (F comm, F ierr), (comm, ierr))
SP_FORTRAN(allgatherv, SP_CALL_ALLGATHERV,
           in_place(sbuf) ? fone_of(rcounts, rtype, comm) : fbytes(scount, stype),
           (B sbuf, F scount, F stype, B rbuf, F rcounts, F displs, F rtype, F comm, F ierr),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierr))
SP_FORTRAN(gatherv, SP_CALL_GATHERV,
           in_place(sbuf) ? fone_of(rcounts, rtype, comm) : fbytes(scount, stype),
           (B sbuf, F scount, F stype, B rbuf, F rcounts, F displs, F rtype, F root, F comm,
            F ierr),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierr))
SP_FORTRAN(scatterv, SP_CALL_SCATTERV,
           in_place(rbuf) ? fone_of(scounts, stype, comm) : fbytes(rcount, rtype),
           (B sbuf, F scounts, F displs, F stype, B rbuf, F rcount, F rtype, F root, F comm,
            F ierr),
           (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN(alltoallv, SP_CALL_ALLTOALLV,
           in_place(sbuf) ? fcounts(rcounts, rtype, comm) : fcounts(scounts, stype, comm),
           (B sbuf, F scounts, F sdispls, F stype, B rbuf, F rcounts, F rdispls, F rtype, F comm,
            F ierr),
           (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierr))
SP_FORTRAN(reduce_scatter, SP_CALL_REDUCE_SCATTER, fcounts(rcounts, type, comm),
           (B sbuf, B rbuf, F rcounts, F type, F op, F comm, F ierr),
           (sbuf, rbuf, rcounts, type, op, comm, ierr))
SP_FORTRAN(test, SP_CALL_TEST, 0, (F req, F flag, F status, F ierr), (req, flag, status, ierr))
SP_FORTRAN(testall, SP_CALL_TESTALL, 0, (F count, F reqs, F flag, F statuses, F ierr),
           (count, reqs, flag, statuses, ierr))
SP_FORTRAN(testany, SP_CALL_TESTANY, 0, (F count, F reqs, F index, F flag, F status, F ierr),
           (count, reqs, index, flag, status, ierr))
SP_FORTRAN(testsome, SP_CALL_TESTSOME, 0,
           (F incount, F reqs, F outcount, F indices, F statuses, F ierr),
           (incount, reqs, outcount, indices, statuses, ierr))
SP_FORTRAN(probe, SP_CALL_PROBE, 0, (F src, F tag, F comm, F status, F ierr),
           (src, tag, comm, status, ierr))
SP_FORTRAN(iprobe, SP_CALL_IPROBE, 0, (F src, F tag, F comm, F flag, F status, F ierr),
           (src, tag, comm, flag, status, ierr))
SP_FORTRAN(sendrecv_replace, SP_CALL_SENDRECV_REPLACE, 2 * fbytes(count, type),
           (B buf, F count, F type, F dest, F stag, F src, F rtag, F comm, F status, F ierr),
           (buf, count, type, dest, stag, src, rtag, comm, status, ierr))
SP_FORTRAN(put, SP_CALL_PUT, fbytes(ocount, otype),
           (B origin, F ocount, F otype, F trank, MPI_Aint *tdisp, F tcount, F ttype, F win,
            F ierr),
           (origin, ocount, otype, trank, tdisp, tcount, ttype, win, ierr))
SP_FORTRAN(get, SP_CALL_GET, fbytes(ocount, otype),
           (B origin, F ocount, F otype, F trank, MPI_Aint *tdisp, F tcount, F ttype, F win,
            F ierr),
           (origin, ocount, otype, trank, tdisp, tcount, ttype, win, ierr))
SP_FORTRAN(accumulate, SP_CALL_ACCUMULATE, fbytes(ocount, otype),
           (B origin, F ocount, F otype, F trank, MPI_Aint *tdisp, F tcount, F ttype, F op, F win,
            F ierr),
           (origin, ocount, otype, trank, tdisp, tcount, ttype, op, win, ierr))
SP_FORTRAN(win_fence, SP_CALL_WIN_FENCE, 0, (F assert_, F win, F ierr), (assert_, win, ierr))
SP_FORTRAN(win_lock, SP_CALL_WIN_LOCK, 0, (F type, F rank, F assert_, F win, F ierr),
           (type, rank, assert_, win, ierr))
SP_FORTRAN(win_unlock, SP_CALL_WIN_UNLOCK, 0, (F rank, F win, F ierr), (rank, win, ierr))
/* the file name's length comes last, hidden (gfortran passes a size_t) */
SP_FORTRAN(file_open, SP_CALL_FILE_OPEN, 0,
           (F comm, char *name, F amode, F info, F fh, F ierr, size_t name_length),
           (comm, name, amode, info, fh, ierr, name_length))
SP_FORTRAN(file_close, SP_CALL_FILE_CLOSE, 0, (F fh, F ierr), (fh, ierr))

#define SP_FORTRAN_ACCESS(lname, call)                                                             \
    SP_FORTRAN(lname, call, fbytes(count, type), (F fh, B buf, F count, F type, F last, F ierr),   \
               (fh, buf, count, type, last, ierr))
#define SP_FORTRAN_ACCESS_AT(lname, call)                                                          \
    SP_FORTRAN(lname, call, fbytes(count, type),                                                   \
               (F fh, MPI_Offset * offset, B buf, F count, F type, F last, F ierr),                \
               (fh, offset, buf, count, type, last, ierr))

SP_FORTRAN_ACCESS(file_read, SP_CALL_FILE_READ)
SP_FORTRAN_ACCESS_AT(file_read_at, SP_CALL_FILE_READ_AT)
SP_FORTRAN_ACCESS(file_read_all, SP_CALL_FILE_READ_ALL)
SP_FORTRAN_ACCESS_AT(file_read_at_all, SP_CALL_FILE_READ_AT_ALL)
SP_FORTRAN_ACCESS(file_read_shared, SP_CALL_FILE_READ_SHARED)
SP_FORTRAN_ACCESS(file_read_ordered, SP_CALL_FILE_READ_ORDERED)
SP_FORTRAN_ACCESS(file_iread, SP_CALL_FILE_IREAD)
SP_FORTRAN_ACCESS_AT(file_iread_at, SP_CALL_FILE_IREAD_AT)
SP_FORTRAN_ACCESS(file_write, SP_CALL_FILE_WRITE)
SP_FORTRAN_ACCESS_AT(file_write_at, SP_CALL_FILE_WRITE_AT)
SP_FORTRAN_ACCESS(file_write_all, SP_CALL_FILE_WRITE_ALL)
SP_FORTRAN_ACCESS_AT(file_write_at_all, SP_CALL_FILE_WRITE_AT_ALL)
SP_FORTRAN_ACCESS(file_write_shared, SP_CALL_FILE_WRITE_SHARED)
SP_FORTRAN_ACCESS(file_write_ordered, SP_CALL_FILE_WRITE_ORDERED)
SP_FORTRAN_ACCESS(file_iwrite, SP_CALL_FILE_IWRITE)
SP_FORTRAN_ACCESS_AT(file_iwrite_at, SP_CALL_FILE_IWRITE_AT)
