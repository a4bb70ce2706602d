#include "mpi/rank_stream.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/blob.h"
#include "mpi/thread_pack.h"
#include "model/model.h"

#define TAG_GO     7201
#define TAG_HEADER 7202
#define TAG_INDEX  7203
#define TAG_EVENTS 7204

/* What a rank announces before its index. */
typedef struct rank_header {
    uint64_t num_rows;
    uint64_t num_events;
    uint64_t num_threads;
    uint64_t index_bytes;
    int32_t has_thread_ids;
    int32_t ok; /* 0: the rank could not serialise its index (out of memory) */
} rank_header;

static void put_rows(sp_blob *b, const sp_model *m) {
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *row = &m->rows[i];
        sp_blob_put(b, &row->region, sizeof row->region);
        sp_blob_put(b, &row->count, sizeof row->count);
        sp_blob_put(b, &row->source_line, sizeof row->source_line);
        sp_blob_put(b, &row->exclusive_total, sizeof row->exclusive_total);
        sp_blob_put(b, &row->stats, sizeof row->stats);
        sp_blob_put(b, &row->has_message_bytes, sizeof row->has_message_bytes);
        sp_blob_put(b, &row->message_bytes, sizeof row->message_bytes);
        sp_blob_put_string(b, row->source_file);
        sp_blob_put_string(b, row->source_text);
        sp_blob_put_string(b, row->tags);
        sp_blob_put_string(b, row->event_metadata);
    }
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_pack_put(b, &m->threads[i]);
    }
    sp_forks_pack_put(b, m);
}

/* The columns chunk by chunk, interleaved, so that rank 0 can write each
 * chunk as it arrives. */
static int send_events(MPI_Comm comm, const sp_model *m, size_t n, int with_threads) {
    for (size_t done = 0; done < n; done += SP_MPI_EVENT_CHUNK) {
        int part = (int)(n - done < SP_MPI_EVENT_CHUNK ? n - done : SP_MPI_EVENT_CHUNK);
        int rc = MPI_Send(m->starts + done, part, MPI_INT64_T, 0, TAG_EVENTS, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(m->durations + done, part, MPI_INT64_T, 0, TAG_EVENTS, comm);
        if (rc == MPI_SUCCESS && with_threads)
            rc = MPI_Send(m->thread_ids + done, part, MPI_INT64_T, 0, TAG_EVENTS, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int sp_mpi_send_rank(MPI_Comm comm, const sp_model *m) {
    int go;
    int rc = MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    sp_blob index = {0};
    put_rows(&index, m);
    rank_header h = {m->num_rows, m->num_events,         m->num_threads,
                     index.size,  m->thread_ids != NULL, !index.failed && index.size <= INT32_MAX};
    if (!h.ok) h.num_rows = h.num_events = h.num_threads = h.index_bytes = 0;
    rc = MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_HEADER, comm);
    if (rc == MPI_SUCCESS && h.index_bytes)
        rc = MPI_Send(index.data, (int)index.size, MPI_BYTE, 0, TAG_INDEX, comm);
    sp_blob_free(&index);
    if (rc == MPI_SUCCESS) rc = send_events(comm, m, h.num_events, h.has_thread_ids);
    return rc;
}

static void free_rows(sp_model_row *rows, size_t n) {
    for (size_t i = 0; i < n && rows; i++) {
        free(rows[i].source_file);
        free(rows[i].source_text);
        free(rows[i].tags);
        free(rows[i].event_metadata);
    }
    free(rows);
}

/* Parses a rank's index: rows (region ids mapped to the union, rank set),
 * threads and fork points. */
static int parse_index(sp_blob_reader *in, const rank_header *h, int rank, const uint32_t *map,
                       size_t map_length, sp_model_row **rows_out, sp_thread_info **threads_out,
                       sp_thread_fork **forks, size_t *num_forks) {
    sp_model_row *rows = calloc(h->num_rows ? h->num_rows : 1, sizeof *rows);
    sp_thread_info *threads = calloc(h->num_threads ? h->num_threads : 1, sizeof *threads);
    *rows_out = rows;
    *threads_out = threads;
    if (!rows || !threads) return 0;
    for (uint64_t i = 0; i < h->num_rows && !in->failed; i++) {
        sp_model_row *row = &rows[i];
        sp_blob_get(in, &row->region, sizeof row->region);
        sp_blob_get(in, &row->count, sizeof row->count);
        sp_blob_get(in, &row->source_line, sizeof row->source_line);
        sp_blob_get(in, &row->exclusive_total, sizeof row->exclusive_total);
        sp_blob_get(in, &row->stats, sizeof row->stats);
        sp_blob_get(in, &row->has_message_bytes, sizeof row->has_message_bytes);
        sp_blob_get(in, &row->message_bytes, sizeof row->message_bytes);
        row->source_file = sp_blob_get_string(in);
        row->source_text = sp_blob_get_string(in);
        row->tags = sp_blob_get_string(in);
        row->event_metadata = sp_blob_get_string(in);
        if (row->region >= map_length) return 0;
        row->region = map[row->region];
        row->rank = (uint32_t)rank;
        row->has_stats = 1;
    }
    for (uint64_t i = 0; i < h->num_threads && !in->failed; i++) {
        sp_thread_pack_get(in, &threads[i], (uint32_t)rank);
    }
    return !in->failed && sp_forks_pack_get(in, (uint32_t)rank, forks, num_forks);
}

static void free_threads(sp_thread_info *threads, size_t n) {
    for (size_t i = 0; i < n && threads; i++)
        free(threads[i].name);
    free(threads);
}

/* Rank 0's own rows, mapped like any other rank's. */
static sp_status append_own(const sp_model *m, sp_writer *w, const uint32_t *map, size_t map_length,
                            sp_error *err) {
    sp_model_row *rows = malloc((m->num_rows ? m->num_rows : 1) * sizeof *rows);
    if (!rows) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "rank 0: out of memory");
    memcpy(rows, m->rows, m->num_rows * sizeof *rows);
    for (size_t i = 0; i < m->num_rows; i++)
        rows[i].region = rows[i].region < map_length ? map[rows[i].region] : 0;
    sp_status st =
        sp_writer_append(w, rows, m->num_rows, m->starts, m->durations, m->thread_ids, err);
    free(rows);
    if (!st) st = sp_writer_put_threads(w, m->threads, m->num_threads, err);
    if (!st && m->forks) st = sp_writer_put_forks(w, m->forks, m->num_forks, err);
    return st;
}

/* Receives the event chunks of one rank and streams them to the writer. Keeps
 * receiving after a writer error, so that the sender is never left blocked. */
static sp_status receive_events(MPI_Comm comm, int r, const rank_header *h, sp_writer *w,
                                sp_status st, sp_error *err) {
    size_t chunk = SP_MPI_EVENT_CHUNK;
    int64_t *starts = malloc(chunk * sizeof *starts);
    int64_t *durations = malloc(chunk * sizeof *durations);
    int64_t *threads = h->has_thread_ids ? malloc(chunk * sizeof *threads) : NULL;
    if (!starts || !durations || (h->has_thread_ids && !threads)) {
        free(starts);
        free(durations);
        free(threads);
        /* without buffers we cannot even drain: MPI will report the broken link */
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "rank 0: out of memory receiving rank %d",
                            r);
    }
    for (uint64_t done = 0; done < h->num_events; done += chunk) {
        int part = (int)(h->num_events - done < chunk ? h->num_events - done : chunk);
        int rc = MPI_Recv(starts, part, MPI_INT64_T, r, TAG_EVENTS, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(durations, part, MPI_INT64_T, r, TAG_EVENTS, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && threads)
            rc = MPI_Recv(threads, part, MPI_INT64_T, r, TAG_EVENTS, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS && !st)
            st = sp_error_set(err, SP_ERR_MPI, "rank 0: receiving the calls of rank %d failed", r);
        if (!st) st = sp_writer_add_events(w, starts, durations, threads, (size_t)part, err);
    }
    free(starts);
    free(durations);
    free(threads);
    return st;
}

sp_status sp_mpi_receive_rank(MPI_Comm comm, int r, const sp_model *own, sp_writer *w,
                              const uint32_t *map, size_t map_length, sp_error *err) {
    if (r == 0) return append_own(own, w, map, map_length, err);
    int go = 1;
    rank_header h;
    if (MPI_Send(&go, 1, MPI_INT, r, TAG_GO, comm) != MPI_SUCCESS ||
        MPI_Recv(&h, (int)sizeof h, MPI_BYTE, r, TAG_HEADER, comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
        return sp_error_set(err, SP_ERR_MPI, "rank 0: no answer from rank %d", r);
    sp_status st = SP_OK;
    unsigned char *index = malloc(h.index_bytes ? h.index_bytes : 1);
    if (h.index_bytes && MPI_Recv(index, (int)h.index_bytes, MPI_BYTE, r, TAG_INDEX, comm,
                                  MPI_STATUS_IGNORE) != MPI_SUCCESS)
        st = sp_error_set(err, SP_ERR_MPI, "rank 0: receiving the index of rank %d failed", r);
    if (!st && !h.ok)
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "rank %d: out of memory sending its index", r);
    sp_model_row *rows = NULL;
    sp_thread_info *threads = NULL;
    sp_thread_fork *forks = NULL;
    size_t num_forks = 0;
    sp_blob_reader in = {index, h.index_bytes, 0, 0};
    if (!st &&
        (!index || !parse_index(&in, &h, r, map, map_length, &rows, &threads, &forks, &num_forks)))
        st = sp_error_set(err, SP_ERR_MPI, "rank 0: the index of rank %d is malformed", r);
    if (!st) st = sp_writer_add_rows(w, rows, h.num_rows, err);
    if (!st) st = sp_writer_put_threads(w, threads, h.num_threads, err);
    if (!st && forks) st = sp_writer_put_forks(w, forks, num_forks, err);
    free(forks);
    free_rows(rows, rows ? h.num_rows : 0);
    free_threads(threads, threads ? h.num_threads : 0);
    free(index);
    return receive_events(comm, r, &h, w, st, err);
}
