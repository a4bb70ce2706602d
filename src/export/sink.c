#include "export/sink.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

#include "common/error.h"
#include "common/py_float.h"
#include "format/atomic_file.h"

#define ZBUF_SIZE (256 * 1024)

sp_status sp_sink_open(sp_sink *s, FILE *out, int gzip, sp_error *err) {
    memset(s, 0, sizeof *s);
    s->out = out;
    s->buf = malloc(SP_SINK_BUFFER);
    if (!s->buf) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    if (!gzip) return SP_OK;
    z_stream *z = calloc(1, sizeof *z);
    s->zbuf = malloc(ZBUF_SIZE);
    /* windowBits 15 + 16: a gzip header and trailer instead of zlib's. */
    if (!z || !s->zbuf || deflateInit2(z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(z);
        free(s->zbuf);
        free(s->buf);
        memset(s, 0, sizeof *s);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory (gzip)");
    }
    s->z = z;
    return SP_OK;
}

static void put_raw(sp_sink *s, const void *data, size_t n) {
    if (s->failed || !n) return;
    if (fwrite(data, 1, n, s->out) != n) {
        s->failed = 1;
        s->error_no = errno;
    }
}

static void deflate_data(sp_sink *s, const unsigned char *data, size_t n, int flush) {
    z_stream *z = s->z;
    z->next_in = (unsigned char *)data;
    z->avail_in = (uInt)n;
    do {
        z->next_out = s->zbuf;
        z->avail_out = ZBUF_SIZE;
        int rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR) {
            s->failed = 1;
            return;
        }
        put_raw(s, s->zbuf, ZBUF_SIZE - z->avail_out);
    } while (z->avail_out == 0 || (flush == Z_FINISH && z->avail_in));
}

static void emit(sp_sink *s, const void *data, size_t n) {
    s->bytes += n;
    if (s->z)
        deflate_data(s, data, n, Z_NO_FLUSH);
    else
        put_raw(s, data, n);
}

void sp_sink_flush(sp_sink *s) {
    emit(s, s->buf, s->len);
    s->len = 0;
}

void sp_sink_write_large(sp_sink *s, const void *data, size_t n) {
    sp_sink_flush(s);
    emit(s, data, n);
}

sp_status sp_sink_close(sp_sink *s, const char *what, sp_error *err) {
    if (s->buf) sp_sink_flush(s);
    if (s->z) {
        deflate_data(s, NULL, 0, Z_FINISH);
        deflateEnd(s->z);
        free(s->z);
    }
    if (!s->failed && fflush(s->out) != 0) {
        s->failed = 1;
        s->error_no = errno;
    }
    free(s->buf);
    free(s->zbuf);
    int failed = s->failed, error_no = s->error_no;
    s->buf = s->zbuf = NULL;
    s->z = NULL;
    if (!failed) return SP_OK;
    sp_status st = error_no ? sp_status_from_errno(error_no) : SP_ERR_IO;
    if (st == SP_OK || st == SP_ERR_NO_SUCH_FILE) st = SP_ERR_IO;
    return sp_error_set(err, st, "cannot write %s: %s", what,
                        error_no ? strerror(error_no) : "write failed");
}

void sp_sink_py_float(sp_sink *s, double v) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(v, num);
    sp_sink_puts(s, num);
}
