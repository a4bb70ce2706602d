#include "format/chunk_read.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel_for.h"
#include "common/worker_threads.h"
#include "format/chunk_decode.h"
#include "format/lzf_filter.h"

#define MAX_THREADS  SP_MAX_WORKER_THREADS
#define BATCH_CHUNKS 64u
#define BATCH_BYTES  ((size_t)32 << 20) /* stored bytes held at once */

typedef enum sp_chunk_read_result {
    SP_CHUNK_READ_DONE,
    SP_CHUNK_READ_DAMAGED,     /* rd->err set */
    SP_CHUNK_READ_NOT_HANDLED, /* a chunk never written: HDF5 fills it */
    SP_CHUNK_READ_NO_MEMORY    /* rd->err set */
} sp_chunk_read_result;

/* 8-byte little-endian integers: their stored bytes are the int64 (or the
 * uint64, which the caller checks against the int64 range). */
static int int64_handled(hid_t ds) {
    hid_t type = H5Dget_type(ds);
    if (type < 0) return 0;
    int ok = H5Tget_class(type) == H5T_INTEGER && H5Tget_size(type) == 8 &&
             H5Tget_order(type) == H5T_ORDER_LE;
    H5Tclose(type);
    return ok && sp_rd_host_little_endian();
}

static size_t element_size(hid_t ds) {
    hid_t type = H5Dget_type(ds);
    if (type < 0) return 0;
    size_t size = H5Tget_size(type);
    H5Tclose(type);
    return size;
}

static int pipeline_of(hid_t dcpl, size_t elem, sp_chunk_pipeline *p) {
    int num = H5Pget_nfilters(dcpl);
    if (num < 0 || num > SP_CHUNK_MAX_STAGES) return 0;
    p->num = num;
    p->elem = elem;
    for (int i = 0; i < num; i++) {
        unsigned flags = 0, cd[8] = {0}, config = 0;
        size_t ncd = sizeof cd / sizeof *cd;
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, &config);
        if (id == H5Z_FILTER_SHUFFLE && ncd >= 1 && cd[0] == elem)
            p->stage[i] = SP_STAGE_SHUFFLE;
        else if (id == H5Z_FILTER_DEFLATE)
            p->stage[i] = SP_STAGE_DEFLATE;
        else if (id == SP_LZF_FILTER_ID && sp_lzf_available())
            p->stage[i] = SP_STAGE_LZF;
        else
            return 0; /* fletcher32, szip, n-bit, a plugin: HDF5's business */
    }
    return 1;
}

/* The chunk length and pipeline of a dataset of elem-byte elements this
 * reader decodes, else 0. */
static hsize_t layout_of(hid_t ds, size_t elem, sp_chunk_pipeline *p) {
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0) return 0;
    hsize_t chunk = 0;
    unsigned opts = 0;
    int ok = H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 1, &chunk) == 1 &&
             chunk > 0 && chunk <= (hsize_t)SP_RD_MAX_CHUNK_BYTES / elem &&
             H5Pget_chunk_opts(dcpl, &opts) >= 0 &&
             !(opts & H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS) && pipeline_of(dcpl, elem, p);
    H5Pclose(dcpl);
    return ok ? chunk : 0;
}

typedef struct chunk_job {
    size_t raw_at, raw_size; /* in the batch's buffer */
    unsigned mask;
    size_t first, n; /* the values it holds */
} chunk_job;

/* One batch of stored chunks, decoded by whichever thread takes each next. */
typedef struct crew {
    const sp_chunk_pipeline *pipe;
    size_t chunk;
    const unsigned char *raw;
    const chunk_job *jobs;
    size_t num_jobs;
    size_t next;   /* atomic: the next job to take */
    size_t failed; /* atomic: the lowest job that did not decode, num_jobs if none */
    unsigned char *out;
} crew;

typedef struct worker {
    crew *c;
    unsigned char *scratch; /* 2 chunks */
} worker;

static void *decode_jobs(void *arg) {
    worker *w = arg;
    crew *c = w->c;
    for (;;) {
        size_t k = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
        if (k >= c->num_jobs) break;
        const chunk_job *j = &c->jobs[k];
        if (!sp_chunk_decode(c->pipe, j->mask, c->raw + j->raw_at, j->raw_size, c->chunk, j->n,
                             c->out + j->first * c->pipe->elem, w->scratch))
            sp_parallel_note_first(&c->failed, k);
    }
    return NULL;
}

/* Decodes the batch on `threads` threads (the caller's among them); a
 * thread that cannot start leaves its share to the others. */
static void run_crew(crew *c, worker *workers, int threads) {
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    if ((size_t)threads > c->num_jobs) threads = (int)c->num_jobs;
    for (int t = 1; t < threads; t++) {
        workers[t].c = c;
        started[t] = pthread_create(&ids[t], NULL, decode_jobs, &workers[t]) == 0;
    }
    workers[0].c = c;
    decode_jobs(&workers[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(ids[t], NULL);
}

typedef struct reader {
    sp_rd *rd;
    hid_t ds;
    const char *path;
    size_t n, elem;
    hsize_t chunk;
    unsigned char *raw;
    size_t raw_cap;
    chunk_job jobs[BATCH_CHUNKS];
} reader;

/* Reads chunk k as stored into the batch buffer at *used. */
static sp_chunk_read_result read_stored(reader *r, size_t k, size_t *used, chunk_job *j) {
    hsize_t offset = (hsize_t)k * r->chunk, size = 0;
    if (H5Dget_chunk_storage_size(r->ds, &offset, &size) < 0) {
        sp_rd_damaged(r->rd, "chunk %zu of %s cannot be located", k, r->path);
        return SP_CHUNK_READ_DAMAGED;
    }
    if (size == 0) return SP_CHUNK_READ_NOT_HANDLED; /* never written after all */
    uint64_t want = (uint64_t)r->chunk * r->elem;
    if (size > sp_rd_max_stored_chunk(want)) {
        sp_rd_damaged(r->rd, "chunk %zu of %s stores %llu bytes for %llu", k, r->path,
                      (unsigned long long)size, (unsigned long long)want);
        return SP_CHUNK_READ_DAMAGED;
    }
    if (*used + size > r->raw_cap) {
        size_t cap = r->raw_cap ? r->raw_cap : 1 << 20;
        while (cap < *used + size)
            cap *= 2;
        unsigned char *p = realloc(r->raw, cap);
        if (!p) {
            sp_rd_no_memory(r->rd);
            return SP_CHUNK_READ_NO_MEMORY;
        }
        r->raw = p, r->raw_cap = cap;
    }
    uint32_t mask = 0;
    if (H5Dread_chunk(r->ds, H5P_DEFAULT, &offset, &mask, r->raw + *used) < 0) {
        sp_rd_read_failed(r->rd, r->path);
        return SP_CHUNK_READ_DAMAGED;
    }
    j->raw_at = *used, j->raw_size = (size_t)size, j->mask = mask;
    j->first = k * (size_t)r->chunk;
    j->n = r->n - j->first < r->chunk ? r->n - j->first : (size_t)r->chunk;
    *used += (size_t)size;
    return SP_CHUNK_READ_DONE;
}

static sp_chunk_read_result read_all(reader *r, const sp_chunk_pipeline *pipe, unsigned char *out,
                                     worker *workers, int threads) {
    size_t num_chunks = (r->n + r->chunk - 1) / r->chunk;
    for (size_t k = 0; k < num_chunks;) {
        size_t count = 0, used = 0;
        while (k + count < num_chunks && count < BATCH_CHUNKS && (!count || used < BATCH_BYTES)) {
            sp_chunk_read_result res = read_stored(r, k + count, &used, &r->jobs[count]);
            if (res != SP_CHUNK_READ_DONE) return res;
            count++;
        }
        crew c = {.pipe = pipe,
                  .chunk = (size_t)r->chunk,
                  .raw = r->raw,
                  .jobs = r->jobs,
                  .num_jobs = count,
                  .failed = count,
                  .out = out};
        run_crew(&c, workers, threads);
        if (c.failed < count) {
            const chunk_job *j = &r->jobs[c.failed];
            sp_rd_damaged(r->rd,
                          "cannot read %s: its chunk of values %zu-%zu does not decode (a "
                          "damaged file)",
                          r->path, j->first, j->first + j->n - 1);
            return SP_CHUNK_READ_DAMAGED;
        }
        k += count;
    }
    return SP_CHUNK_READ_DONE;
}

sp_status sp_rd_chunk_read(sp_rd *rd, hid_t ds, const char *path, size_t n, size_t elem, void *out,
                           int threads, int *handled) {
    sp_chunk_pipeline pipe;
    *handled = 0;
    if (!n || !elem || elem > SP_RD_MAX_CHUNK_BYTES || element_size(ds) != elem) return SP_OK;
    hsize_t chunk = layout_of(ds, elem, &pipe);
    if (!chunk) return SP_OK;
    if (threads <= 0) threads = sp_worker_threads();
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    size_t num_chunks = (n + chunk - 1) / chunk;
    /* a chunk never written reads as the fill value: HDF5's business */
    hid_t space = H5Dget_space(ds);
    hsize_t allocated = 0;
    int whole =
        space >= 0 && H5Dget_num_chunks(ds, space, &allocated) >= 0 && allocated == num_chunks;
    if (space >= 0) H5Sclose(space);
    if (!whole) return SP_OK;
    if ((size_t)threads > num_chunks) threads = (int)num_chunks;
    worker workers[MAX_THREADS] = {{0}};
    sp_chunk_read_result res = SP_CHUNK_READ_DONE;
    for (int t = 0; t < threads && res == SP_CHUNK_READ_DONE; t++)
        if (!(workers[t].scratch = malloc(2 * (size_t)chunk * elem))) {
            sp_rd_no_memory(rd);
            res = SP_CHUNK_READ_NO_MEMORY;
        }
    reader r = {.rd = rd, .ds = ds, .path = path, .n = n, .elem = elem, .chunk = chunk};
    if (res == SP_CHUNK_READ_DONE) res = read_all(&r, &pipe, out, workers, threads);
    free(r.raw);
    for (int t = 0; t < threads; t++)
        free(workers[t].scratch);
    *handled = res != SP_CHUNK_READ_NOT_HANDLED;
    return res == SP_CHUNK_READ_DAMAGED     ? SP_ERR_DAMAGED
           : res == SP_CHUNK_READ_NO_MEMORY ? SP_ERR_OUT_OF_MEMORY
                                            : SP_OK;
}

sp_status sp_rd_chunk_read_int64(sp_rd *rd, hid_t ds, const char *path, size_t n, int64_t *out,
                                 int threads, int *handled) {
    *handled = 0;
    if (!int64_handled(ds)) return SP_OK;
    return sp_rd_chunk_read(rd, ds, path, n, 8, out, threads, handled);
}
