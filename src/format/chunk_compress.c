#include "format/chunk_compress.h"

#include <pthread.h>
#include <string.h>
#include <zlib.h>

#include "common/worker_threads.h"

size_t sp_chunk_bound(size_t chunk_elements) {
    return (size_t)compressBound((uLong)(chunk_elements * sizeof(int64_t)));
}

/* HDF5's shuffle filter for 8-byte elements: byte j of every element, then byte j+1. */
static void shuffle(const int64_t *values, size_t n, size_t chunk, unsigned char *out) {
    const unsigned char *in = (const unsigned char *)values;
    for (size_t j = 0; j < sizeof(int64_t); j++) {
        unsigned char *dst = out + j * chunk;
        for (size_t i = 0; i < n; i++)
            dst[i] = in[i * sizeof(int64_t) + j];
        memset(dst + n, 0, chunk - n); /* the edge chunk is stored full size */
    }
}

static void *run_job(void *arg) {
    sp_chunk_job *job = arg;
    size_t bytes = job->chunk_elements * sizeof(int64_t);
    shuffle(job->values, job->n, job->chunk_elements, job->shuffled);
    uLongf size = (uLongf)sp_chunk_bound(job->chunk_elements);
    /* compress2 is what HDF5's deflate filter calls: a zlib stream */
    job->out_size = compress2(job->out, &size, job->shuffled, (uLong)bytes, job->level) == Z_OK
                        ? (size_t)size
                        : 0;
    return NULL;
}

int sp_chunk_compress_all(sp_chunk_job *jobs, size_t count) {
    pthread_t threads[8];
    int started[8] = {0};
    size_t workers = sp_worker_threads_may_start() ? 8 : 1;
    for (size_t i = 1; i < count && i < workers; i++)
        started[i] = pthread_create(&threads[i], NULL, run_job, &jobs[i]) == 0;
    run_job(&jobs[0]);
    for (size_t i = 1; i < count; i++) {
        if (i < workers && started[i])
            pthread_join(threads[i], NULL);
        else
            run_job(&jobs[i]);
    }
    for (size_t i = 0; i < count; i++)
        if (!jobs[i].out_size) return 0;
    return 1;
}
