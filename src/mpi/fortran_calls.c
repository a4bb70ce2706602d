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

#include "mpi/peer_pending.h"
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

/* Open MPI's MPI_IN_PLACE, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE in
 * Fortran are addresses of common blocks, one per name mangling (mpi_f08
 * shares mpif.h's). */
typedef struct sentinel {
    const char *names[2];
    void *address[2];
    int looked;
} sentinel;
static sentinel in_place_ = {{"mpi_fortran_in_place_", "mpi_fortran_in_place"}, {0}, 0};
static sentinel status_ignore = {
    {"mpi_fortran_status_ignore_", "mpi_fortran_status_ignore"}, {0}, 0};
static sentinel statuses_ignore = {
    {"mpi_fortran_statuses_ignore_", "mpi_fortran_statuses_ignore"}, {0}, 0};

static int is(sentinel *s, const void *buf) {
    if (!__atomic_load_n(&s->looked, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < 2; i++)
            s->address[i] = dlsym(RTLD_DEFAULT, s->names[i]);
        __atomic_store_n(&s->looked, 1, __ATOMIC_RELEASE);
    }
    return buf && (buf == s->address[0] || buf == s->address[1]);
}

static int in_place(const void *buf) {
    return is(&in_place_, buf);
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

/* --- peer records (mpi/peer_records.h), as the C wrappers keep them ------- */

/* Open MPI's Fortran status: MPI_STATUS_SIZE integers, MPI_SOURCE and
 * MPI_TAG first (mpif.h's and mpi_f08's TYPE(MPI_Status) alike). */
enum { FSTATUS = sizeof(MPI_Status) / sizeof(MPI_Fint) };

static int fok(const MPI_Fint *ierr) {
    return !ierr || *ierr == MPI_SUCCESS; /* mpi_f08's ierror is optional */
}

/* A receiving call's record; the status the call fills in becomes `own`
 * when the caller passed MPI_STATUS_IGNORE. */
static sp_peer_record *freceiving(sp_mpi_call call, F comm, F peer, F tag, int64_t bytes, F *status,
                                  F own) {
    if (is(&status_ignore, *status)) *status = own;
    return sp_peer_add(call, fcomm(comm), *peer, *tag, bytes);
}

static void fnote_status(sp_peer_record *rec, const MPI_Fint *status, F ierr) {
    if (!rec || !fok(ierr) || status[0] < 0) return;
    rec->source = sp_peer_world(rec->comm, status[0]);
    rec->source_tag = status[1];
}

/* A Wait/Test call's requests (the C handles of the Fortran ones) and the
 * Fortran statuses it fills in. */
typedef struct fwait {
    sp_peer_pending p;
    sp_peer_record *rec;
    MPI_Fint *statuses; /* where the call writes them: the caller's or ours */
    MPI_Fint *owned;
    MPI_Fint own[FSTATUS];
    int ok;
} fwait;

/* Returns the status argument to pass on. */
static F fwait_open(fwait *w, sp_mpi_call call, int count, F requests, F statuses, int single) {
    w->ok = 0;
    w->owned = NULL;
    w->rec = sp_peer_add(call, MPI_COMM_NULL, SP_PEER_NONE, SP_PEER_NONE, 0);
    int n = count > 0 && requests ? count : 0;
    MPI_Request inline_[SP_PENDING_INLINE];
    MPI_Request *c = n > SP_PENDING_INLINE ? malloc((size_t)n * sizeof *c) : inline_;
    if (!c) return statuses;
    for (int i = 0; i < n; i++)
        c[i] = PMPI_Request_f2c(requests[i]);
    MPI_Status *ignore = single ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE;
    w->ok = sp_peer_pending_open(&w->p, n, c, ignore, single);
    if (c != inline_) free(c);
    w->statuses = statuses;
    if (w->ok && is(single ? &status_ignore : &statuses_ignore, statuses))
        w->statuses = single ? w->own : (w->owned = malloc((size_t)n * FSTATUS * sizeof(MPI_Fint)));
    if (w->ok && !w->statuses) w->ok = 0;
    if (!w->ok) {
        sp_peer_pending_close(&w->p, ignore);
        free(w->owned);
        return statuses;
    }
    return w->statuses;
}

/* Request i (0-based) completed. */
static void fwait_done(fwait *w, int i) {
    if (i < 0 || i >= w->p.count) return;
    int k = w->p.single ? 0 : i;
    w->p.statuses[k].MPI_SOURCE = w->statuses[k * FSTATUS];
    w->p.statuses[k].MPI_TAG = w->statuses[k * FSTATUS + 1];
    sp_peer_pending_done(w->rec, &w->p, i);
}

static void fwait_close(fwait *w) {
    if (!w->ok) return;
    sp_peer_pending_close(&w->p, w->p.single ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE);
    free(w->owned);
}

/* What each kind of call keeps: STATE is declared, BEFORE and AFTER run
 * around the call on the thread that records peer data; `b` is the call's
 * bytes. The parameters are named alike in every wrapper of a kind. */
#define K_NONE_STATE
#define K_NONE_BEFORE
#define K_NONE_AFTER
#define K_SEND_STATE
#define K_SEND_BEFORE sp_peer_add(call, fcomm(comm), *peer, *tag, b)
#define K_SEND_AFTER
#define K_REQUEST_STATE  sp_peer_record *rec = NULL
#define K_REQUEST_BEFORE rec = sp_peer_add(call, fcomm(comm), *peer, *tag, b)
#define K_REQUEST_AFTER                                                                            \
    if (rec && fok(ierr)) rec->aux = sp_peer_request(PMPI_Request_f2c(*req), rec->comm)
#define K_RECV_STATE                                                                               \
    sp_peer_record *rec = NULL;                                                                    \
    MPI_Fint own[FSTATUS]
#define K_RECV_BEFORE rec = freceiving(call, comm, peer, tag, b, &status, own)
#define K_RECV_AFTER  fnote_status(rec, status, ierr)
/* Sendrecv's record: the send half's peer, tag and bytes, like the C wrapper's */
#define K_SENDRECV_STATE K_RECV_STATE
#define K_SENDRECV_BEFORE                                                                          \
    rec = freceiving(call, comm, peer, tag, fbytes(scount, stype), &status, own)
#define K_SENDRECV_AFTER K_RECV_AFTER
#define K_REPLACE_STATE  K_RECV_STATE
#define K_REPLACE_BEFORE rec = freceiving(call, comm, peer, tag, b / 2, &status, own)
#define K_REPLACE_AFTER  K_RECV_AFTER
#define K_COLLECTIVE_STATE
#define K_COLLECTIVE_BEFORE sp_peer_collective(call, fcomm(comm), -1, b)
#define K_COLLECTIVE_AFTER
#define K_ROOTED_STATE
#define K_ROOTED_BEFORE sp_peer_collective(call, fcomm(comm), *root, b)
#define K_ROOTED_AFTER
/* Wait/Test: which requests completed (Fortran indices start at 1). */
#define COMPLETED(done)                                                                            \
    if (w.ok && fok(ierr)) {                                                                       \
        sp_peer_lock();                                                                            \
        done;                                                                                      \
        sp_peer_unlock();                                                                          \
    }                                                                                              \
    fwait_close(&w)
#define ONE_OF(i)         fwait_done(&w, *index != MPI_UNDEFINED ? (i)-1 : -1)
#define K_WAIT_STATE      fwait w
#define K_WAIT_BEFORE     status = fwait_open(&w, call, 1, req, status, 1)
#define K_WAIT_AFTER      COMPLETED(fwait_done(&w, 0))
#define K_WAITALL_STATE   fwait w
#define K_WAITALL_BEFORE  statuses = fwait_open(&w, call, *count, reqs, statuses, 0)
#define K_WAITALL_AFTER   COMPLETED(for (int i = 0; i < w.p.count; i++) fwait_done(&w, i))
#define K_WAITANY_STATE   fwait w
#define K_WAITANY_BEFORE  status = fwait_open(&w, call, *count, reqs, status, 1)
#define K_WAITANY_AFTER   COMPLETED(ONE_OF(*index))
#define K_TEST_STATE      fwait w
#define K_TEST_BEFORE     K_WAIT_BEFORE
#define K_TEST_AFTER      COMPLETED(if (*flag) fwait_done(&w, 0))
#define K_TESTALL_STATE   fwait w
#define K_TESTALL_BEFORE  K_WAITALL_BEFORE
#define K_TESTALL_AFTER   COMPLETED(for (int i = 0; *flag && i < w.p.count; i++) fwait_done(&w, i))
#define K_TESTANY_STATE   fwait w
#define K_TESTANY_BEFORE  K_WAITANY_BEFORE
#define K_TESTANY_AFTER   COMPLETED(if (*flag) ONE_OF(*index))
#define K_TESTSOME_STATE  fwait w
#define K_TESTSOME_BEFORE statuses = fwait_open(&w, call, *count, reqs, statuses, 0)
#define K_TESTSOME_AFTER                                                                           \
    COMPLETED(for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)                    \
                  fwait_done(&w, indices[k] - 1))

/* fn: the profiling entry point `pmpi`, looked up at the first call. */
#define SP_REAL(fn, pmpi, params)                                                                  \
    static void(*real) params;                                                                     \
    void(*fn) params = __atomic_load_n(&real, __ATOMIC_RELAXED);                                   \
    if (!fn) {                                                                                     \
        *(void **)&fn = resolve(pmpi);                                                             \
        __atomic_store_n(&real, fn, __ATOMIC_RELAXED);                                             \
    }

#define SP_FORTRAN_ONE(sym, pmpi, call_, bytes, kind, params, args)                                \
    __attribute__((visibility("default"))) void sym params;                                        \
    void sym params {                                                                              \
        SP_REAL(fn, pmpi, params);                                                                 \
        if (!sp_mpi_calls_on()) {                                                                  \
            fn args;                                                                               \
            return;                                                                                \
        }                                                                                          \
        const sp_mpi_call call = call_;                                                            \
        int64_t b = bytes;                                                                         \
        sp_mpi_call_bytes(call, b);                                                                \
        kind##_STATE;                                                                              \
        int peers = sp_peer_on();                                                                  \
        if (peers) {                                                                               \
            kind##_BEFORE;                                                                         \
        }                                                                                          \
        sp_begin(sp_mpi_call_regions_[call]);                                                      \
        fn args;                                                                                   \
        sp_end_at(sp_mpi_call_regions_[call], __FILE__, __LINE__);                                 \
        if (peers) {                                                                               \
            kind##_AFTER;                                                                          \
        }                                                                                          \
    }

/* mpif.h / `use mpi` (gfortran's mangling) and `use mpi_f08`; `kind` (K_*
 * above) says what the call's peer record holds. */
#define SP_FORTRAN_KIND(lname, call, bytes, kind, params, args)                                    \
    SP_FORTRAN_ONE(mpi_##lname##_, "pmpi_" #lname "_", call, bytes, kind, params, args)            \
    SP_FORTRAN_ONE(mpi_##lname##_f08_, "pmpi_" #lname "_f08_", call, bytes, kind, params, args)
#define SP_FORTRAN(lname, call, bytes, params, args)                                               \
    SP_FORTRAN_KIND(lname, call, bytes, K_NONE, params, args)

SP_FORTRAN_KIND(send, SP_CALL_SEND, fbytes(count, type), K_SEND,
                (B buf, F count, F type, F peer, F tag, F comm, F ierr),
                (buf, count, type, peer, tag, comm, ierr))
SP_FORTRAN_KIND(recv, SP_CALL_RECV, fbytes(count, type), K_RECV,
                (B buf, F count, F type, F peer, F tag, F comm, F status, F ierr),
                (buf, count, type, peer, tag, comm, status, ierr))
SP_FORTRAN_KIND(isend, SP_CALL_ISEND, fbytes(count, type), K_REQUEST,
                (B buf, F count, F type, F peer, F tag, F comm, F req, F ierr),
                (buf, count, type, peer, tag, comm, req, ierr))
SP_FORTRAN_KIND(irecv, SP_CALL_IRECV, fbytes(count, type), K_REQUEST,
                (B buf, F count, F type, F peer, F tag, F comm, F req, F ierr),
                (buf, count, type, peer, tag, comm, req, ierr))
SP_FORTRAN_KIND(sendrecv, SP_CALL_SENDRECV, fbytes(scount, stype) + fbytes(rcount, rtype),
                K_SENDRECV,
                (B sbuf, F scount, F stype, F peer, F tag, B rbuf, F rcount, F rtype, F src, F rtag,
                 F comm, F status, F ierr),
                (sbuf, scount, stype, peer, tag, rbuf, rcount, rtype, src, rtag, comm, status,
                 ierr))
SP_FORTRAN_KIND(wait, SP_CALL_WAIT, 0, K_WAIT, (F req, F status, F ierr), (req, status, ierr))
SP_FORTRAN_KIND(waitall, SP_CALL_WAITALL, 0, K_WAITALL, (F count, F reqs, F statuses, F ierr),
                (count, reqs, statuses, ierr))
SP_FORTRAN_KIND(waitany, SP_CALL_WAITANY, 0, K_WAITANY,
                (F count, F reqs, F index, F status, F ierr), (count, reqs, index, status, ierr))
SP_FORTRAN_KIND(bcast, SP_CALL_BCAST, fbytes(count, type), K_ROOTED,
                (B buf, F count, F type, F root, F comm, F ierr),
                (buf, count, type, root, comm, ierr))
SP_FORTRAN_KIND(reduce, SP_CALL_REDUCE, fbytes(count, type), K_ROOTED,
                (B sbuf, B rbuf, F count, F type, F op, F root, F comm, F ierr),
                (sbuf, rbuf, count, type, op, root, comm, ierr))
SP_FORTRAN_KIND(allreduce, SP_CALL_ALLREDUCE, fbytes(count, type), K_COLLECTIVE,
                (B sbuf, B rbuf, F count, F type, F op, F comm, F ierr),
                (sbuf, rbuf, count, type, op, comm, ierr))
SP_FORTRAN_KIND(gather, SP_CALL_GATHER, fblock(sbuf, scount, stype, rcount, rtype), K_ROOTED,
                (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F root, F comm, F ierr),
                (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN_KIND(allgather, SP_CALL_ALLGATHER, fblock(sbuf, scount, stype, rcount, rtype),
                K_COLLECTIVE,
                (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F comm, F ierr),
                (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr))
SP_FORTRAN_KIND(scatter, SP_CALL_SCATTER, fblock(rbuf, rcount, rtype, scount, stype), K_ROOTED,
                (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F root, F comm, F ierr),
                (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN_KIND(alltoall, SP_CALL_ALLTOALL,
                fblock(sbuf, scount, stype, rcount, rtype) * comm_size(fcomm(comm)), K_COLLECTIVE,
                (B sbuf, F scount, F stype, B rbuf, F rcount, F rtype, F comm, F ierr),
                (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr))
SP_FORTRAN_KIND(barrier, SP_CALL_BARRIER, 0, K_COLLECTIVE, (F comm, F ierr), (comm, ierr))
SP_FORTRAN_KIND(allgatherv, SP_CALL_ALLGATHERV,
                in_place(sbuf) ? fone_of(rcounts, rtype, comm) : fbytes(scount, stype),
                K_COLLECTIVE,
                (B sbuf, F scount, F stype, B rbuf, F rcounts, F displs, F rtype, F comm, F ierr),
                (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierr))
SP_FORTRAN_KIND(gatherv, SP_CALL_GATHERV,
                in_place(sbuf) ? fone_of(rcounts, rtype, comm) : fbytes(scount, stype), K_ROOTED,
                (B sbuf, F scount, F stype, B rbuf, F rcounts, F displs, F rtype, F root, F comm,
                 F ierr),
                (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierr))
SP_FORTRAN_KIND(scatterv, SP_CALL_SCATTERV,
                in_place(rbuf) ? fone_of(scounts, stype, comm) : fbytes(rcount, rtype), K_ROOTED,
                (B sbuf, F scounts, F displs, F stype, B rbuf, F rcount, F rtype, F root, F comm,
                 F ierr),
                (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierr))
SP_FORTRAN_KIND(alltoallv, SP_CALL_ALLTOALLV,
                in_place(sbuf) ? fcounts(rcounts, rtype, comm) : fcounts(scounts, stype, comm),
                K_COLLECTIVE,
                (B sbuf, F scounts, F sdispls, F stype, B rbuf, F rcounts, F rdispls, F rtype,
                 F comm, F ierr),
                (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierr))
SP_FORTRAN_KIND(reduce_scatter, SP_CALL_REDUCE_SCATTER, fcounts(rcounts, type, comm), K_COLLECTIVE,
                (B sbuf, B rbuf, F rcounts, F type, F op, F comm, F ierr),
                (sbuf, rbuf, rcounts, type, op, comm, ierr))
SP_FORTRAN_KIND(test, SP_CALL_TEST, 0, K_TEST, (F req, F flag, F status, F ierr),
                (req, flag, status, ierr))
SP_FORTRAN_KIND(testall, SP_CALL_TESTALL, 0, K_TESTALL,
                (F count, F reqs, F flag, F statuses, F ierr), (count, reqs, flag, statuses, ierr))
SP_FORTRAN_KIND(testany, SP_CALL_TESTANY, 0, K_TESTANY,
                (F count, F reqs, F index, F flag, F status, F ierr),
                (count, reqs, index, flag, status, ierr))
SP_FORTRAN_KIND(testsome, SP_CALL_TESTSOME, 0, K_TESTSOME,
                (F count, F reqs, F outcount, F indices, F statuses, F ierr),
                (count, reqs, outcount, indices, statuses, ierr))
SP_FORTRAN(probe, SP_CALL_PROBE, 0, (F src, F tag, F comm, F status, F ierr),
           (src, tag, comm, status, ierr))
SP_FORTRAN(iprobe, SP_CALL_IPROBE, 0, (F src, F tag, F comm, F flag, F status, F ierr),
           (src, tag, comm, flag, status, ierr))
SP_FORTRAN_KIND(sendrecv_replace, SP_CALL_SENDRECV_REPLACE, 2 * fbytes(count, type), K_REPLACE,
                (B buf, F count, F type, F peer, F tag, F src, F rtag, F comm, F status, F ierr),
                (buf, count, type, peer, tag, src, rtag, comm, status, ierr))
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

/* MPI_Comm_free: a later communicator may reuse the handle (peer_records.h). */
#define SP_FORTRAN_COMM_FREE(sym, pmpi)                                                            \
    __attribute__((visibility("default"))) void sym(F comm, F ierr);                               \
    void sym(F comm, F ierr) {                                                                     \
        SP_REAL(fn, pmpi, (F, F));                                                                 \
        if (sp_mpi_calls_on() && sp_peer_on()) sp_peer_forget_comm(fcomm(comm));                   \
        fn(comm, ierr);                                                                            \
    }
SP_FORTRAN_COMM_FREE(mpi_comm_free_, "pmpi_comm_free_")
SP_FORTRAN_COMM_FREE(mpi_comm_free_f08_, "pmpi_comm_free_f08_")
