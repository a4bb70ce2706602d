#include "mpi/parallel_tail.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/guarded_driver.h"
#include "format/h5_write.h"
#include "format/writer_tables.h"
#include "common/blob.h"
#include "mpi/thread_pack.h"

#define SCHEMA_VERSION 3 /* FORMAT.md 1 */

static void put_tail(sp_blob *b, const sp_model *m) {
    uint64_t rows = m->num_rows, threads = m->num_threads;
    sp_blob_put(b, &rows, sizeof rows);
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *row = &m->rows[i];
        sp_blob_put(b, &row->has_message_bytes, sizeof row->has_message_bytes);
        sp_blob_put(b, &row->message_bytes, sizeof row->message_bytes);
        sp_blob_put_string(b, row->source_file);
        sp_blob_put_string(b, row->source_text);
        sp_blob_put_string(b, row->tags ? row->tags : "[]");
        sp_blob_put_string(b, row->event_metadata ? row->event_metadata : "[]");
    }
    sp_blob_put(b, &threads, sizeof threads);
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_pack_put(b, &m->threads[i]);
    }
    sp_forks_pack_put(b, m);
}

static int grow(void **array, size_t *capacity, size_t needed, size_t elem) {
    if (needed <= *capacity) return 1;
    size_t cap = *capacity ? *capacity : 16;
    while (cap < needed)
        cap *= 2;
    void *grown = realloc(*array, cap * elem);
    if (!grown) return 0;
    memset((char *)grown + *capacity * elem, 0, (cap - *capacity) * elem);
    *array = grown;
    *capacity = cap;
    return 1;
}

/* Appends one rank's part to the tail; 0 when it is malformed or memory ran out. */
static int parse_tail(sp_blob_reader *in, uint32_t rank, sp_parallel_tail *t, size_t *row_cap,
                      size_t *thread_cap) {
    uint64_t rows = 0, threads = 0;
    sp_blob_get(in, &rows, sizeof rows);
    if (in->failed || !grow((void **)&t->rows, row_cap, t->num_rows + rows, sizeof *t->rows))
        return 0;
    for (uint64_t i = 0; i < rows && !in->failed; i++) {
        sp_model_row *row = &t->rows[t->num_rows++];
        row->rank = rank;
        sp_blob_get(in, &row->has_message_bytes, sizeof row->has_message_bytes);
        sp_blob_get(in, &row->message_bytes, sizeof row->message_bytes);
        row->source_file = sp_blob_get_string(in);
        row->source_text = sp_blob_get_string(in);
        row->tags = sp_blob_get_string(in);
        row->event_metadata = sp_blob_get_string(in);
    }
    sp_blob_get(in, &threads, sizeof threads);
    if (in->failed ||
        !grow((void **)&t->threads, thread_cap, t->num_threads + threads, sizeof *t->threads))
        return 0;
    for (uint64_t i = 0; i < threads && !in->failed; i++) {
        sp_thread_pack_get(in, &t->threads[t->num_threads++], rank);
    }
    sp_thread_fork *forks = NULL;
    size_t n = 0;
    int ok = !in->failed && sp_forks_pack_get(in, rank, &forks, &n);
    if (ok && n) {
        sp_thread_fork *grown = realloc(t->forks, (t->num_forks + n) * sizeof *grown);
        ok = grown != NULL;
        if (grown) {
            memcpy(grown + t->num_forks, forks, n * sizeof *forks);
            t->forks = grown;
            t->num_forks += n;
        }
    }
    free(forks);
    return ok && in->pos == in->size;
}

void sp_parallel_tail_free(sp_parallel_tail *t) {
    for (size_t i = 0; i < t->num_rows; i++) {
        free(t->rows[i].source_file);
        free(t->rows[i].source_text);
        free(t->rows[i].tags);
        free(t->rows[i].event_metadata);
    }
    for (size_t i = 0; i < t->num_threads; i++)
        free(t->threads[i].name);
    free(t->rows);
    free(t->threads);
    free(t->forks);
    memset(t, 0, sizeof *t);
}

int sp_parallel_tail_gather(MPI_Comm comm, int rank, int size, const sp_model *own,
                            sp_parallel_tail *tail) {
    memset(tail, 0, sizeof *tail);
    sp_blob mine = {0};
    put_tail(&mine, own);
    int bytes = mine.failed || mine.size > INT_MAX ? -1 : (int)mine.size;
    int *counts = rank == 0 ? malloc((size_t)size * sizeof *counts) : NULL;
    int *displs = rank == 0 ? malloc((size_t)size * sizeof *displs) : NULL;
    int rc = MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    /* rank 0 decides whether the gather can go ahead, and says so */
    int ok = rc == MPI_SUCCESS && bytes >= 0;
    unsigned char *all = NULL;
    if (rank == 0) {
        long long total = 0;
        for (int r = 0; ok && counts && displs && r < size; r++) {
            if (counts[r] < 0) ok = 0;
            displs[r] = (int)total;
            total += counts[r] > 0 ? counts[r] : 0;
        }
        ok = ok && counts && displs && total <= INT_MAX;
        all = ok ? malloc(total ? (size_t)total : 1) : NULL;
        ok = ok && all;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (ok && MPI_Gatherv(mine.data ? mine.data : (unsigned char *)"", bytes, MPI_BYTE, all, counts,
                          displs, MPI_BYTE, 0, comm) != MPI_SUCCESS)
        ok = 0;
    sp_blob_free(&mine);
    size_t row_cap = 0, thread_cap = 0;
    for (int r = 0; rank == 0 && ok && r < size; r++) {
        sp_blob_reader in = {all + displs[r], (size_t)counts[r], 0, 0};
        ok = parse_tail(&in, (uint32_t)r, tail, &row_cap, &thread_cap);
    }
    free(all);
    free(counts);
    free(displs);
    if (!ok) sp_parallel_tail_free(tail);
    return ok ? 0 : -1;
}

static int write_string_column(hid_t group, const char *name, const sp_model_row *rows, size_t n,
                               size_t field) {
    const char **strings = malloc((n ? n : 1) * sizeof *strings);
    if (!strings) return -1;
    for (size_t i = 0; i < n; i++)
        strings[i] = *(char *const *)((const char *)&rows[i] + field);
    /* short values fixed-length, as the stream writer stores them (docs/format.md); the
     * parallel writer's index columns are not compressed */
    int rc = sp_h5_write_string_column(group, name, strings, n, -1);
    free(strings);
    return rc;
}

/* The index's string columns, under the group phase 1 created. */
static int write_index_strings(hid_t file, const sp_parallel_tail *t) {
    hid_t group = H5Gopen2(file, "rank_region_index", H5P_DEFAULT);
    if (group < 0) return -1;
    int rc = write_string_column(group, "source_files", t->rows, t->num_rows,
                                 offsetof(sp_model_row, source_file));
    if (rc == 0)
        rc = write_string_column(group, "source_texts", t->rows, t->num_rows,
                                 offsetof(sp_model_row, source_text));
    if (rc == 0)
        rc = write_string_column(group, "tags", t->rows, t->num_rows, offsetof(sp_model_row, tags));
    if (rc == 0)
        rc = write_string_column(group, "event_metadata", t->rows, t->num_rows,
                                 offsetof(sp_model_row, event_metadata));
    if (H5Gclose(group) < 0) rc = -1;
    return rc;
}

static int write_rest(hid_t file, const sp_parallel_input *in, const sp_parallel_tail *t,
                      int has_thread_ids) {
    if (sp_h5_attr_int64(file, "scope_profiler_schema", SCHEMA_VERSION) < 0 ||
        sp_h5_attr_string(file, "storage_layout", "columnar") < 0)
        return -1;
    hid_t group = H5Gcreate2(file, "region_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = group >= 0 ? sp_h5_write_strings(group, "names", (const char *const *)in->u->names,
                                              in->u->num_names)
                        : -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    if (rc == 0) rc = sp_write_metadata(file, in->meta, in->num_meta);
    if (rc == 0) rc = write_index_strings(file, t);
    /* the same tables, in the same order, as sp_writer_commit() */
    int threads = has_thread_ids && t->num_threads;
    int64_t origin = sp_metadata_time_origin(in->meta, in->num_meta);
    if (rc == 0 && threads) rc = sp_write_thread_table(file, t->threads, t->num_threads, origin);
    if (rc == 0 && in->offsets && in->num_offsets)
        rc = sp_write_clock_offsets(file, in->offsets, in->num_offsets);
    if (rc == 0 && threads) rc = sp_write_thread_parents(file, t->threads, t->num_threads);
    if (rc == 0 && threads) rc = sp_write_thread_forks(file, t->forks, t->num_forks);
    if (rc == 0) rc = sp_write_message_bytes(file, t->rows, t->num_rows);
    return rc;
}

sp_status sp_parallel_tail_write(const char *tmp_path, const char *path,
                                 const sp_parallel_input *in, const sp_parallel_tail *tail,
                                 int has_thread_ids, sp_error *err) {
    int io_errno = 0;
    errno = 0;
    hid_t fapl = sp_guarded_fapl(&io_errno);
    hid_t file = fapl >= 0 ? H5Fopen(tmp_path, H5F_ACC_RDWR, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    int rc = file >= 0 ? write_rest(file, in, tail, has_thread_ids) : -1;
    if (file >= 0 && H5Fclose(file) < 0) rc = -1;
    if (rc == 0 && !io_errno) return SP_OK;
    int e = io_errno ? io_errno : errno;
    if (e == ENOSPC || e == EDQUOT || e == EFBIG)
        return sp_error_set(err, SP_ERR_DISK_FULL,
                            "cannot write %s: %s; free some space or write elsewhere", path,
                            strerror(e));
    return sp_error_set(err, SP_ERR_HDF5,
                        "cannot write %s: the HDF5 library failed while rank 0 added the strings "
                        "and tables after the collective phase",
                        path);
}
