#include "mpi/parallel_writer.h"

#include <hdf5.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/h5_write.h"
#include "format/writer_tables.h"
#include "mpi/parallel_tail.h"

/* Where this rank's part goes, agreed by prefix sums. */
typedef struct slices {
    uint64_t events_before, rows_before; /* MPI_Exscan */
    uint64_t total_events, total_rows;
    int has_thread_ids; /* any rank: then every rank writes the column */
    int gzip_level;     /* rank 0's choice for the total */
} slices;

/* Every rank learns the first failure (lowest rank) and its message. */
static sp_status agree(MPI_Comm comm, int rank, sp_status st, sp_error *err) {
    int failed = st ? rank : INT_MAX, first = INT_MAX;
    if (MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return sp_error_set(err, SP_ERR_MPI, "the parallel writer's ranks lost contact");
    if (first == INT_MAX) return SP_OK;
    struct {
        int status;
        char message[sizeof err->message];
    } m = {(int)st, ""};
    if (rank == first) snprintf(m.message, sizeof m.message, "%s", err->message);
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, comm);
    if (rank != first) sp_error_set(err, (sp_status)m.status, "rank %d: %s", first, m.message);
    return (sp_status)m.status;
}

/* Rank r's map from its region ids to the union's (rank 0 holds them all). */
static uint32_t *scatter_map(MPI_Comm comm, int rank, int size, const sp_region_union *u,
                             size_t local, sp_status *st, sp_error *err) {
    int *counts = NULL, *displs = NULL;
    uint32_t *all = NULL, *mine = malloc((local ? local : 1) * sizeof *mine);
    int ok = mine != NULL && local <= INT_MAX;
    if (rank == 0) {
        counts = malloc((size_t)size * sizeof *counts);
        displs = malloc((size_t)size * sizeof *displs);
        size_t total = 0;
        for (int r = 0; counts && displs && r < size; r++)
            total += u->map_length[r];
        all = malloc((total ? total : 1) * sizeof *all);
        ok = ok && counts && displs && all && total <= INT_MAX;
        for (int r = 0, at = 0; ok && r < size; at += counts[r], r++) {
            counts[r] = (int)u->map_length[r];
            displs[r] = at;
            memcpy(all + at, u->map[r], u->map_length[r] * sizeof *all);
        }
    }
    *st = ok ? SP_OK : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory for the region map");
    *st = agree(comm, rank, *st, err);
    if (!*st && MPI_Scatterv(all, counts, displs, MPI_UINT32_T, mine, (int)local, MPI_UINT32_T, 0,
                             comm) != MPI_SUCCESS)
        *st = sp_error_set(err, SP_ERR_MPI, "scattering the region map failed");
    free(counts);
    free(displs);
    free(all);
    return mine;
}

/* A row's starts become FORMAT.md 2.1 deltas in place (and back: exact in int64). */
static void to_deltas(sp_model *m) {
    for (size_t r = 0; r < m->num_rows; r++) {
        int64_t *s = m->starts + m->rows[r].offset;
        for (uint64_t i = m->rows[r].count; i-- > 1;)
            s[i] -= s[i - 1];
    }
}

static void from_deltas(sp_model *m) {
    for (size_t r = 0; r < m->num_rows; r++) {
        int64_t *s = m->starts + m->rows[r].offset;
        for (uint64_t i = 1; i < m->rows[r].count; i++)
            s[i] += s[i - 1];
    }
}

/* The writers put a rank's calls in row order: the model's columns can be
 * written as they are only if its rows are back to back in that order. */
static int rows_in_order(const sp_model *m) {
    uint64_t at = 0;
    for (size_t r = 0; r < m->num_rows; r++) {
        if (m->rows[r].offset != at) return 0;
        at += m->rows[r].count;
    }
    return at == m->num_events;
}

static hid_t create_column(hid_t loc, const char *name, hid_t file_type, uint64_t n,
                           uint64_t chunk_elements, int gzip_level) {
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = sp_h5_dcpl(n, H5Tget_size(file_type), chunk_elements, gzip_level);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0)
        ds = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (space >= 0) H5Sclose(space);
    return ds;
}

/* Collective: creates `name` for `total` elements and writes this rank's n at offset. */
static int write_column(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                        uint64_t total, uint64_t chunk_elements, int gzip_level, uint64_t offset,
                        uint64_t n, const void *data, hid_t dxpl) {
    hid_t ds = create_column(loc, name, file_type, total, chunk_elements, gzip_level);
    if (ds < 0) return -1;
    int rc = 0;
    if (total) { /* every rank takes part, with an empty selection if it has nothing */
        hsize_t start = offset, count = n;
        hid_t file_space = H5Dget_space(ds);
        hid_t mem_space = H5Screate_simple(1, &count, NULL);
        static const int64_t nothing = 0;
        rc = file_space >= 0 && mem_space >= 0 ? 0 : -1;
        if (rc == 0 && n)
            rc = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL);
        else if (rc == 0)
            rc = H5Sselect_none(file_space) < 0 || H5Sselect_none(mem_space) < 0 ? -1 : 0;
        if (rc >= 0)
            rc = H5Dwrite(ds, mem_type, mem_space, file_space, dxpl, n ? data : &nothing) < 0 ? -1
                                                                                              : 0;
        if (mem_space >= 0) H5Sclose(mem_space);
        if (file_space >= 0) H5Sclose(file_space);
    }
    if (H5Dclose(ds) < 0) rc = -1;
    return rc < 0 ? -1 : 0;
}

/* This rank's event columns (every rank calls each write, even with no calls). */
static int write_events(hid_t file, sp_model *m, const slices *s, hid_t dxpl) {
    hid_t group = H5Gcreate2(file, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0) return -1;
    size_t n = m->num_events;
    int64_t *zeros = NULL; /* thread ids of a rank that tracked no threads: thread 0 */
    if (s->has_thread_ids && !m->thread_ids) zeros = calloc(n ? n : 1, sizeof *zeros);
    int rc = s->has_thread_ids && !m->thread_ids && !zeros ? -1 : 0;
    uint64_t chunk = SP_EVENT_CHUNK_ELEMENTS;
#define EVENT_COLUMN(name, values)                                                                 \
    if (rc == 0)                                                                                   \
        rc = write_column(group, name, H5T_STD_I64LE, H5T_NATIVE_INT64, s->total_events, chunk,    \
                          s->gzip_level, s->events_before, n, values, dxpl);
    to_deltas(m);
    EVENT_COLUMN("start_deltas", m->starts)
    from_deltas(m);
    EVENT_COLUMN("durations", m->durations)
    if (s->has_thread_ids) EVENT_COLUMN("thread_ids", m->thread_ids ? m->thread_ids : zeros)
#undef EVENT_COLUMN
    free(zeros);
    if (H5Gclose(group) < 0) rc = -1;
    return rc;
}

/* This rank's rows of the numeric index columns (the strings come in phase 2). */
static int write_index(hid_t file, const sp_model *m, int rank, const uint32_t *map,
                       const slices *s, hid_t dxpl) {
    size_t n = m->num_rows, k = n ? n : 1;
    uint32_t *regions = malloc(k * sizeof *regions), *ranks = malloc(k * sizeof *ranks);
    uint64_t *offsets = malloc(k * sizeof *offsets), *counts = malloc(k * sizeof *counts);
    int64_t *lines = malloc(k * sizeof *lines), *exclusive = malloc(k * sizeof *exclusive);
    sp_row_stats *stats = malloc(k * sizeof *stats);
    hid_t group = H5Gcreate2(file, "rank_region_index", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t stats_file = sp_h5_stats_file_type(), stats_memory = sp_h5_stats_memory_type();
    int rc = regions && ranks && offsets && counts && lines && exclusive && stats && group >= 0 &&
                     stats_file >= 0 && stats_memory >= 0
                 ? 0
                 : -1;
    uint64_t at = s->events_before;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const sp_model_row *row = &m->rows[i];
        regions[i] = map[row->region];
        ranks[i] = (uint32_t)rank;
        offsets[i] = at;
        counts[i] = row->count;
        at += row->count;
        lines[i] = row->source_line;
        exclusive[i] = row->exclusive_total;
        stats[i] = row->stats;
    }
    /* the chunking sp_h5_write_array() gives these columns in the stream writer */
#define INDEX_COLUMN(name, ftype, mtype, values)                                                   \
    if (rc == 0)                                                                                   \
        rc = write_column(group, name, ftype, mtype, s->total_rows,                                \
                          SP_CONTIGUOUS_MAX_BYTES / H5Tget_size(ftype), -1, s->rows_before, n,     \
                          values, dxpl);
    INDEX_COLUMN("region_ids", H5T_STD_U32LE, H5T_NATIVE_UINT32, regions)
    INDEX_COLUMN("ranks", H5T_STD_U32LE, H5T_NATIVE_UINT32, ranks)
    INDEX_COLUMN("event_offsets", H5T_STD_U64LE, H5T_NATIVE_UINT64, offsets)
    INDEX_COLUMN("event_counts", H5T_STD_U64LE, H5T_NATIVE_UINT64, counts)
    INDEX_COLUMN("source_lines", H5T_STD_I64LE, H5T_NATIVE_INT64, lines)
    INDEX_COLUMN("exclusive_totals", H5T_STD_I64LE, H5T_NATIVE_INT64, exclusive)
    INDEX_COLUMN("summary_statistics", stats_file, stats_memory, stats)
#undef INDEX_COLUMN
    if (stats_file >= 0) H5Tclose(stats_file);
    if (stats_memory >= 0) H5Tclose(stats_memory);
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    free(regions);
    free(ranks);
    free(offsets);
    free(counts);
    free(lines);
    free(exclusive);
    free(stats);
    return rc;
}

/* Phase 1: the collective file. */
static sp_status write_collective(MPI_Comm comm, int rank, const char *tmp_path,
                                  const sp_parallel_input *in, const uint32_t *map, const slices *s,
                                  sp_error *err) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    int rc = fapl >= 0 && H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL) >= 0 &&
                     H5Pset_all_coll_metadata_ops(fapl, 1) >= 0 &&
                     H5Pset_coll_metadata_write(fapl, 1) >= 0
                 ? 0
                 : -1;
    hid_t file = rc == 0 ? H5Fcreate(tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    rc = file >= 0 && dxpl >= 0 && H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) >= 0 ? 0 : -1;
    if (rc == 0) rc = write_events(file, in->own, s, dxpl);
    if (rc == 0) rc = write_index(file, in->own, rank, map, s, dxpl);
    if (dxpl >= 0) H5Pclose(dxpl);
    /* MPI_File_sync on every rank: rank 0's fsync at the commit covers only
     * what rank 0 wrote, and the rename must follow durable data */
    if (rc == 0 && H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) rc = -1;
    if (file >= 0 && H5Fclose(file) < 0) rc = -1;
    return rc < 0 ? sp_error_set(err, SP_ERR_HDF5,
                                 "rank %d: parallel HDF5 failed writing the event columns or the "
                                 "index (MPI-IO)",
                                 rank)
                  : SP_OK;
}

/* Rank 0's temporary file, named to everyone. */
static char *shared_tmp_path(MPI_Comm comm, int rank, const char *path, sp_status *st,
                             sp_error *err) {
    char *tmp = rank == 0 ? sp_atomic_begin(path, err) : NULL;
    long long length = rank == 0 ? (tmp ? (long long)strlen(tmp) : -1) : 0;
    if (rank == 0 && !tmp) *st = err->status;
    MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm);
    if (length < 0) {
        *st = agree(comm, rank, *st, err);
        return NULL;
    }
    if (rank != 0) tmp = calloc((size_t)length + 1, 1);
    *st = tmp ? SP_OK : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    *st = agree(comm, rank, *st, err);
    if (!*st) MPI_Bcast(tmp, (int)length, MPI_CHAR, 0, comm);
    return tmp;
}

static sp_status agree_on_slices(MPI_Comm comm, int rank, const sp_parallel_input *in, slices *s,
                                 sp_error *err) {
    const sp_model *m = in->own;
    memset(s, 0, sizeof *s);
    sp_status st = rows_in_order(m) ? SP_OK
                                    : sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                                                   "rank %d: its calls are not in row order", rank);
    uint64_t mine[2] = {m->num_events, m->num_rows}, before[2] = {0, 0}, total[2] = {0, 0};
    MPI_Exscan(mine, before, 2, MPI_UINT64_T, MPI_SUM, comm);
    if (rank == 0) before[0] = before[1] = 0; /* MPI_Exscan leaves rank 0's undefined */
    MPI_Allreduce(mine, total, 2, MPI_UINT64_T, MPI_SUM, comm);
    int threads = m->thread_ids != NULL;
    MPI_Allreduce(&threads, &s->has_thread_ids, 1, MPI_INT, MPI_MAX, comm);
    s->events_before = before[0];
    s->rows_before = before[1];
    s->total_events = total[0];
    s->total_rows = total[1];
    s->gzip_level = rank == 0 ? sp_writer_gzip_level(s->total_events, &in->options) : 0;
    MPI_Bcast(&s->gzip_level, 1, MPI_INT, 0, comm);
    return agree(comm, rank, st, err);
}

sp_status sp_mpi_write_parallel(MPI_Comm comm, int rank, int size, const sp_parallel_input *in,
                                sp_error *err) {
    H5E_auto2_t handler;
    void *handler_data;
    H5Eget_auto2(H5E_DEFAULT, &handler, &handler_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* failures become statuses, not stack dumps */
    slices s;
    sp_status st = agree_on_slices(comm, rank, in, &s, err);
    uint32_t *map =
        st ? NULL : scatter_map(comm, rank, size, in->u, in->own->num_regions, &st, err);
    for (size_t i = 0; !st && i < in->own->num_rows; i++)
        if (in->own->rows[i].region >= in->own->num_regions)
            st = sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "rank %d: a row's region is unknown",
                              rank);
    st = st ? st : agree(comm, rank, st, err);
    char *tmp = st ? NULL : shared_tmp_path(comm, rank, in->path, &st, err);
    if (!st) st = agree(comm, rank, write_collective(comm, rank, tmp, in, map, &s, err), err);
    sp_parallel_tail tail = {0};
    if (!st)
        st = agree(comm, rank,
                   sp_parallel_tail_gather(comm, rank, size, in->own, &tail) < 0
                       ? sp_error_set(err, SP_ERR_OUT_OF_MEMORY,
                                      "rank %d: gathering the index strings on rank 0 failed "
                                      "(out of memory, or over 2 GiB)",
                                      rank)
                       : SP_OK,
                   err);
    if (rank == 0 && !st) {
        st = sp_parallel_tail_write(tmp, in->path, in, &tail, s.has_thread_ids, err);
        if (!st) {
            st = sp_atomic_commit_checked(tmp, in->path, in->since, in->saved_as, err);
            free(tmp);
            tmp = NULL; /* committed (or removed by the commit on failure) */
        }
    }
    if (rank == 0 && tmp) sp_atomic_abort(tmp);
    free(tmp);
    sp_parallel_tail_free(&tail);
    free(map);
    st = agree(comm, rank, st, err);
    H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
    return st;
}
