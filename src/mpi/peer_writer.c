/*
 * Finalize's last step for the peer records (peer_records.h): every rank's
 * records, completions and communicators gathered to rank 0, which adds
 * /scope_profiler_c/mpi_calls to the file the writers just committed
 * (docs/format.md). The profile is already saved: a failure here loses the
 * peer data only, and says so.
 */
#include "mpi/peer_writer.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/peer_records.h"

/* Gathers n items of `elem` bytes from every rank; rank 0 gets them and the counts. */
static void *gather_items(MPI_Comm comm, int rank, int size, const void *mine, uint64_t n,
                          size_t elem, uint64_t **counts_out, uint64_t *total_out, int *ok) {
    uint64_t *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    long long want = (long long)(n * elem);
    int fits = want <= INT32_MAX, all_fit = 0;
    PMPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, comm);
    PMPI_Gather(&n, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0, comm);
    int *bytes = NULL, *displs = NULL;
    char *all = NULL;
    uint64_t total = 0;
    int good = all_fit && (rank != 0 || counts);
    if (rank == 0 && good) {
        bytes = malloc((size_t)size * sizeof *bytes);
        displs = malloc((size_t)size * sizeof *displs);
        for (int r = 0; r < size; r++)
            total += counts[r];
        good = bytes && displs && total * elem <= INT32_MAX;
        all = good ? malloc(total * elem + 1) : NULL;
        good = good && all;
        for (int r = 0, at = 0; good && r < size; r++) {
            bytes[r] = (int)(counts[r] * elem);
            displs[r] = at;
            at += bytes[r];
        }
    }
    PMPI_Bcast(&good, 1, MPI_INT, 0, comm);
    if (good) PMPI_Gatherv(mine, (int)want, MPI_BYTE, all, bytes, displs, MPI_BYTE, 0, comm);
    free(bytes);
    free(displs);
    if (!good) {
        free(all);
        free(counts);
        all = NULL;
        counts = NULL;
        *ok = 0;
    }
    *counts_out = counts;
    *total_out = total;
    return all;
}

/* A column: contiguous when small, else chunked with shuffle + gzip. */
static int put_column(hid_t group, const char *name, hid_t type, const void *values, uint64_t n,
                      size_t elem) {
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int rc = space >= 0 && dcpl >= 0 ? 0 : -1;
    if (!rc && n * elem > 65536) {
        hsize_t chunk[1] = {n < 65536 ? n : 65536};
        rc = H5Pset_chunk(dcpl, 1, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
                     H5Pset_deflate(dcpl, 4) < 0
                 ? -1
                 : 0;
    }
    hid_t set = rc ? -1 : H5Dcreate2(group, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (set < 0 || (n && H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0)) rc = -1;
    if (set >= 0) H5Dclose(set);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (space >= 0) H5Sclose(space);
    return rc;
}

/* The columns of the gathered records, completions and communicators. */
typedef struct peer_columns {
    uint64_t num_records, num_completions, num_comms, num_members;
    uint32_t *ranks, *completion_ranks, *comm_ranks;
    uint8_t *calls, *complete;
    int32_t *peers, *tags, *sources, *source_tags, *comms, *completion_sources, *completion_tags;
    int32_t *comm_ids, *comm_sizes, *members;
    int32_t *threads; /* the gathered threads, not owned */
    int64_t *bytes, *aux, *requests;
    int size;
} peer_columns;

static void columns_free(peer_columns *c) {
    void *all[] = {c->ranks,
                   c->completion_ranks,
                   c->comm_ranks,
                   c->calls,
                   c->complete,
                   c->peers,
                   c->tags,
                   c->sources,
                   c->source_tags,
                   c->comms,
                   c->completion_sources,
                   c->completion_tags,
                   c->comm_ids,
                   c->comm_sizes,
                   c->members,
                   c->bytes,
                   c->aux,
                   c->requests};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
}

#define ALLOC(p, n) ((p) = malloc(((n) ? (n) : 1) * sizeof *(p)))

/* The rank of each of n gathered rows, from the rows per rank. */
static void rows_ranks(uint32_t *ranks, uint64_t n, const uint64_t *counts) {
    for (uint64_t i = 0, rank = 0, left = counts[0]; i < n; i++, left--) {
        while (!left)
            left = counts[++rank];
        ranks[i] = (uint32_t)rank;
    }
}

static int split_records(peer_columns *c, const sp_peer_record *r, const uint64_t *counts) {
    uint64_t n = c->num_records;
    if (!ALLOC(c->ranks, n) || !ALLOC(c->calls, n) || !ALLOC(c->peers, n) || !ALLOC(c->tags, n) ||
        !ALLOC(c->sources, n) || !ALLOC(c->source_tags, n) || !ALLOC(c->comms, n) ||
        !ALLOC(c->bytes, n) || !ALLOC(c->aux, n))
        return 0;
    rows_ranks(c->ranks, n, counts);
    for (uint64_t i = 0; i < n; i++) {
        int receives = sp_peer_receives(r[i].call), completes = sp_peer_completes(r[i].call);
        c->calls[i] = r[i].call;
        c->peers[i] = r[i].peer;
        c->tags[i] = completes ? SP_PEER_NONE : r[i].tag;
        c->sources[i] = receives ? r[i].source : completes ? r[i].tag : SP_PEER_NONE;
        c->source_tags[i] = receives ? r[i].source_tag : SP_PEER_NONE;
        c->comms[i] = r[i].comm;
        c->bytes[i] = r[i].bytes;
        c->aux[i] = receives ? 0 : r[i].aux;
    }
    return 1;
}

static int split_completions(peer_columns *c, const sp_peer_completion *p, const uint64_t *counts) {
    uint64_t n = c->num_completions;
    if (!ALLOC(c->completion_ranks, n) || !ALLOC(c->requests, n) ||
        !ALLOC(c->completion_sources, n) || !ALLOC(c->completion_tags, n))
        return 0;
    rows_ranks(c->completion_ranks, n, counts);
    for (uint64_t i = 0; i < n; i++) {
        c->requests[i] = p[i].request;
        c->completion_sources[i] = p[i].source;
        c->completion_tags[i] = p[i].tag;
    }
    return 1;
}

/* Communicators travel as int32 runs: id, size, members... */
static int split_comms(peer_columns *c, const int32_t *flat, const uint64_t *counts) {
    uint64_t words = 0, n = 0;
    for (int r = 0; r < c->size; r++)
        words += counts[r];
    for (uint64_t at = 0; at + 1 < words; n++)
        at += 2 + (uint64_t)flat[at + 1];
    c->num_comms = n;
    c->num_members = words - 2 * n;
    if (!ALLOC(c->comm_ranks, n) || !ALLOC(c->comm_ids, n) || !ALLOC(c->comm_sizes, n) ||
        !ALLOC(c->members, c->num_members))
        return 0;
    uint64_t at = 0, m = 0, k = 0;
    for (int r = 0; r < c->size; r++) {
        uint64_t end = at + counts[r];
        for (; at + 1 < end; k++) {
            c->comm_ranks[k] = (uint32_t)r;
            c->comm_ids[k] = flat[at];
            c->comm_sizes[k] = flat[at + 1];
            memcpy(c->members + m, flat + at + 2, (size_t)flat[at + 1] * sizeof *flat);
            m += (uint64_t)flat[at + 1];
            at += 2 + (uint64_t)flat[at + 1];
        }
    }
    return 1;
}

/* The names of the `calls` values, so that readers need no table of their own. */
static int put_call_names(hid_t group) {
    const char *names[SP_CALL_COUNT];
    for (int i = 0; i < SP_CALL_COUNT; i++)
        names[i] = sp_mpi_call_name((sp_mpi_call)i);
    hid_t type = H5Tcopy(H5T_C_S1);
    int rc = type >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 ? 0 : -1;
    if (!rc) rc = put_column(group, "call_names", type, names, SP_CALL_COUNT, 8);
    if (type >= 0) H5Tclose(type);
    return rc;
}

static int write_group(const char *path, const peer_columns *c) {
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0) return -1;
    hid_t top = H5Lexists(file, "scope_profiler_c", H5P_DEFAULT) > 0
                    ? H5Gopen2(file, "scope_profiler_c", H5P_DEFAULT)
                    : H5Gcreate2(file, "scope_profiler_c", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = top >= 0 ? H5Gcreate2(top, "mpi_calls", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = g >= 0 ? 0 : -1;
    int64_t version = 1;
    hid_t aspace = H5Screate(H5S_SCALAR);
    hid_t attr =
        rc ? -1
           : H5Acreate2(g, "extension_version", H5T_STD_I64LE, aspace, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0 || H5Awrite(attr, H5T_NATIVE_INT64, &version) < 0) rc = -1;
    if (attr >= 0) H5Aclose(attr);
    if (aspace >= 0) H5Sclose(aspace);
    uint64_t n = c->num_records, p = c->num_completions, k = c->num_comms;
    struct {
        const char *name;
        hid_t file_type, mem_type;
        const void *values;
        uint64_t n;
        size_t elem;
    } cols[] = {
        {"ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, c->ranks, n, 4},
        {"calls", H5T_STD_U8LE, H5T_NATIVE_UINT8, c->calls, n, 1},
        {"peers", H5T_STD_I32LE, H5T_NATIVE_INT32, c->peers, n, 4},
        {"tags", H5T_STD_I32LE, H5T_NATIVE_INT32, c->tags, n, 4},
        {"communicators", H5T_STD_I32LE, H5T_NATIVE_INT32, c->comms, n, 4},
        {"bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, c->bytes, n, 8},
        {"aux", H5T_STD_I64LE, H5T_NATIVE_INT64, c->aux, n, 8},
        {"sources", H5T_STD_I32LE, H5T_NATIVE_INT32, c->sources, n, 4},
        {"source_tags", H5T_STD_I32LE, H5T_NATIVE_INT32, c->source_tags, n, 4},
        {"threads", H5T_STD_I32LE, H5T_NATIVE_INT32, c->threads, n, 4},
        {"completion_ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, c->completion_ranks, p, 4},
        {"completion_requests", H5T_STD_I64LE, H5T_NATIVE_INT64, c->requests, p, 8},
        {"completion_sources", H5T_STD_I32LE, H5T_NATIVE_INT32, c->completion_sources, p, 4},
        {"completion_tags", H5T_STD_I32LE, H5T_NATIVE_INT32, c->completion_tags, p, 4},
        {"comm_ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, c->comm_ranks, k, 4},
        {"comm_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, c->comm_ids, k, 4},
        {"comm_sizes", H5T_STD_I32LE, H5T_NATIVE_INT32, c->comm_sizes, k, 4},
        {"comm_members", H5T_STD_I32LE, H5T_NATIVE_INT32, c->members, c->num_members, 4},
        {"complete", H5T_STD_U8LE, H5T_NATIVE_UINT8, c->complete, (uint64_t)c->size, 1},
    };
    for (size_t i = 0; !rc && i < sizeof cols / sizeof *cols; i++) {
        hid_t ft = H5Tcopy(cols[i].file_type);
        rc = put_column(g, cols[i].name, ft, cols[i].values, cols[i].n, cols[i].elem);
        H5Tclose(ft);
        (void)cols[i].mem_type;
    }
    if (!rc) rc = put_call_names(g);
    if (g >= 0) H5Gclose(g);
    if (top >= 0) H5Gclose(top);
    if (H5Fclose(file) < 0) rc = -1;
    return rc;
}

/* This rank's communicators as int32 runs (id, size, members). */
static int32_t *flat_comms(const sp_peer_data *d, uint64_t *words) {
    uint64_t n = 0;
    for (int32_t i = 0; i < d->num_comms; i++)
        n += 2 + (uint64_t)d->comms[i].size;
    int32_t *flat = malloc((n ? n : 1) * sizeof *flat);
    if (!flat) return NULL;
    uint64_t at = 0;
    for (int32_t i = 0; i < d->num_comms; i++) {
        flat[at++] = i;
        flat[at++] = d->comms[i].size;
        memcpy(flat + at, d->comms[i].world, (size_t)d->comms[i].size * sizeof *flat);
        at += (uint64_t)d->comms[i].size;
    }
    *words = n;
    return flat;
}

void sp_mpi_peer_write(MPI_Comm comm, int rank, int size, const char *path) {
    sp_peer_data d = sp_peer_data_get();
    int have = d.num_records > 0, any = 0;
    PMPI_Allreduce(&have, &any, 1, MPI_INT, MPI_MAX, comm);
    if (!any) return;
    uint64_t words = 0;
    int32_t *flat = flat_comms(&d, &words);
    int ok = flat != NULL, all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        free(flat);
        if (rank == 0)
            fputs("scope-profiler: out of memory: the MPI peer data is not saved\n", stderr);
        return;
    }
    peer_columns c = {0};
    c.size = size;
    uint64_t *rc_counts = NULL, *pc_counts = NULL, *cc_counts = NULL, *th_counts = NULL, dummy = 0;
    uint8_t complete = (uint8_t)d.complete;
    c.complete = rank == 0 ? malloc((size_t)size) : NULL;
    PMPI_Gather(&complete, 1, MPI_UINT8_T, c.complete, 1, MPI_UINT8_T, 0, comm);
    ok = 1;
    sp_peer_record *records = gather_items(comm, rank, size, d.records, d.num_records,
                                           sizeof *d.records, &rc_counts, &c.num_records, &ok);
    int32_t *threads = gather_items(comm, rank, size, d.threads, d.num_records, sizeof *d.threads,
                                    &th_counts, &dummy, &ok);
    c.threads = threads;
    sp_peer_completion *done =
        gather_items(comm, rank, size, d.completions, d.num_completions, sizeof *d.completions,
                     &pc_counts, &c.num_completions, &ok);
    int32_t *comms =
        gather_items(comm, rank, size, flat, words, sizeof *flat, &cc_counts, &dummy, &ok);
    free(flat);
    if (rank == 0) {
        ok = ok && c.complete && split_records(&c, records, rc_counts) &&
             split_completions(&c, done, pc_counts) && split_comms(&c, comms, cc_counts);
        if (!ok || write_group(path, &c) < 0)
            fprintf(stderr,
                    "scope-profiler: could not add the MPI peer data to %s (the profile itself is "
                    "saved; `scope-profiler waits` will say what is missing)\n",
                    path);
    }
    free(records);
    free(threads);
    free(th_counts);
    free(done);
    free(comms);
    free(rc_counts);
    free(pc_counts);
    free(cc_counts);
    columns_free(&c);
}
