/*
 * The exports' output: a 256 KiB buffer in front of a FILE, optionally
 * gzip-compressed (zlib), with number formatting that writes straight into
 * the buffer. A failed write is sticky: writers check once, at sp_sink_close().
 */
#ifndef SP_EXPORT_SINK_H
#define SP_EXPORT_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/decimal_format.h"
#include "scope_profiler/results.h"

#define SP_SINK_BUFFER (256 * 1024)

typedef struct sp_sink {
    FILE *out;
    unsigned char *buf;
    size_t len;
    void *z; /* z_stream when compressing */
    unsigned char *zbuf;
    int failed;     /* a write or compression step failed */
    int error_no;   /* errno of the failed write */
    uint64_t bytes; /* uncompressed bytes written */
} sp_sink;

sp_status sp_sink_open(sp_sink *s, FILE *out, int gzip, sp_error *err);
/* Flushes everything (and ends the gzip stream); SP_ERR_IO/SP_ERR_DISK_FULL
 * naming `what` when any write failed. Frees the buffers either way. */
sp_status sp_sink_close(sp_sink *s, const char *what, sp_error *err);

void sp_sink_flush(sp_sink *s);

/* Room for n bytes (n <= SP_SINK_BUFFER); write at the pointer, then sp_sink_advance. */
static inline char *sp_sink_reserve(sp_sink *s, size_t n) {
    if (SP_SINK_BUFFER - s->len < n) sp_sink_flush(s);
    return (char *)s->buf + s->len;
}

static inline void sp_sink_advance(sp_sink *s, size_t n) {
    s->len += n;
}

void sp_sink_write_large(sp_sink *s, const void *data, size_t n);

static inline void sp_sink_write(sp_sink *s, const void *data, size_t n) {
    if (n > SP_SINK_BUFFER / 2) {
        sp_sink_write_large(s, data, n);
        return;
    }
    memcpy(sp_sink_reserve(s, n), data, n);
    s->len += n;
}

static inline void sp_sink_puts(sp_sink *s, const char *text) {
    sp_sink_write(s, text, strlen(text));
}

static inline void sp_sink_putc(sp_sink *s, char c) {
    *sp_sink_reserve(s, 1) = c;
    s->len++;
}

static inline void sp_sink_i64(sp_sink *s, int64_t v) {
    s->len += sp_format_i64(v, sp_sink_reserve(s, 24));
}

static inline void sp_sink_u64(sp_sink *s, uint64_t v) {
    s->len += sp_format_u64(v, sp_sink_reserve(s, 24));
}

static inline void sp_sink_scaled(sp_sink *s, int64_t v, int scale) {
    s->len += sp_format_scaled(v, scale, sp_sink_reserve(s, 48));
}

/* ns as the Python package turns them into seconds (int / 1e9), for the
 * raw-clock exports that reproduce its floats. */
static inline double sp_py_seconds(int64_t ns) {
    return (double)ns / 1e9;
}

/* repr(v), as json.dump writes a float. */
void sp_sink_py_float(sp_sink *s, double v);

#endif
