#include "format/header_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/vlen_facts.h"

#define MSG_LAYOUT       0x0008
#define MSG_CONTINUATION 0x0010
#define MSG_SYMBOL_TABLE 0x0011
#define LAYOUT_CHUNKED   2
#define MAX_CHUNKS       64         /* header chunks followed; more is left to libhdf5 */
#define MAX_CHUNK_BYTES  (1u << 20) /* an object header chunk is at most 64 KiB in practice */

typedef struct header_walk {
    const sp_vlen_file *file;
    uint64_t pending[MAX_CHUNKS][2]; /* continuation chunks: address, length */
    size_t num_pending;
    int version;        /* 1 or 2, from the first chunk */
    int creation_order; /* v2: messages carry a 2-byte creation order */
} header_walk;

static uint64_t little_endian(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* -1 damage (why), 0 sound or not understood (libhdf5 decides). */
static int check_layout(const uint8_t *d, size_t n, size_t address_size, char *why,
                        size_t why_size) {
    if (n < 2) return 0;
    size_t dims_at, ndims, dim_bytes = 4;
    if (d[0] == 1 || d[0] == 2) {
        if (n < 3 || d[2] != LAYOUT_CHUNKED) return 0;
        ndims = d[1];
        dims_at = 8 + address_size;
    } else if (d[0] == 3) {
        if (d[1] != LAYOUT_CHUNKED || n < 3) return 0;
        ndims = d[2];
        dims_at = 3 + address_size;
    } else if (d[0] == 4) {
        if (d[1] != LAYOUT_CHUNKED || n < 5) return 0;
        ndims = d[3];
        dim_bytes = d[4];
        dims_at = 5;
        if (dim_bytes < 1 || dim_bytes > 8) return 0;
    } else {
        return 0;
    }
    if (ndims < 2) { /* a chunk's rank, plus the element size */
        snprintf(why, why_size, "describes chunks of %zu dimension(s), at least 2 are needed",
                 ndims);
        return -1;
    }
    if (dims_at > n || ndims > (n - dims_at) / dim_bytes) return 0;
    for (size_t i = 0; i < ndims; i++)
        if (little_endian(d + dims_at + i * dim_bytes, dim_bytes) == 0) {
            snprintf(why, why_size, "describes chunks of size 0 in dimension %zu of %zu", i, ndims);
            return -1;
        }
    return 0;
}

/* An old-style group: its links' B-tree and their names' local heap must lie
 * in the file (libhdf5 1.10 read from a NULL buffer for an undefined heap
 * address: SIGSEGV in H5F__accum_read from H5G__stab_lookup). */
static int check_symbol_table(const sp_vlen_file *f, const uint8_t *d, size_t n, char *why,
                              size_t why_size) {
    size_t a = f->address_size;
    if (n < 2 * a) return 0;
    static const char *const what[2] = {"its links' B-tree", "its link names' local heap"};
    for (int i = 0; i < 2; i++) {
        uint64_t at = little_endian(d + i * a, a);
        if (at >= f->eof) {
            snprintf(why, why_size,
                     "places %s at byte %" PRIu64 ", past the end of the file (%" PRIu64 " bytes)",
                     what[i], at, f->eof);
            return -1;
        }
    }
    return 0;
}

static void note_continuation(header_walk *w, const uint8_t *d, size_t n) {
    size_t a = w->file->address_size, l = w->file->length_size;
    if (n < a + l || w->num_pending == MAX_CHUNKS) return;
    w->pending[w->num_pending][0] = little_endian(d, a);
    w->pending[w->num_pending][1] = little_endian(d + a, l);
    w->num_pending++;
}

/* The messages of one header chunk (bytes [at, end) of chunk). */
static int walk_messages(header_walk *w, const uint8_t *chunk, size_t at, size_t end, char *why,
                         size_t why_size) {
    size_t head = w->version == 1 ? 8 : 4 + (w->creation_order ? 2 : 0);
    while (end - at >= head && at < end) {
        unsigned type = w->version == 1 ? (unsigned)little_endian(chunk + at, 2) : chunk[at];
        size_t size = (size_t)little_endian(chunk + at + (w->version == 1 ? 2 : 1), 2);
        const uint8_t *data = chunk + at + head;
        if (size > end - at - head) return 0; /* a damaged header: libhdf5 refuses it */
        if (type == MSG_LAYOUT &&
            check_layout(data, size, w->file->address_size, why, why_size) < 0)
            return -1;
        if (type == MSG_SYMBOL_TABLE && check_symbol_table(w->file, data, size, why, why_size) < 0)
            return -1;
        if (type == MSG_CONTINUATION) note_continuation(w, data, size);
        at += head + size;
    }
    return 0;
}

/* Whether n bytes at `at` lie inside the file and a header chunk can be that long. */
static int readable(const sp_vlen_file *f, uint64_t at, uint64_t n) {
    return n > 0 && n <= MAX_CHUNK_BYTES && at <= f->eof && n <= f->eof - at;
}

#define SMALL_CHUNK 4096 /* most header chunks: read on the stack */

/* A header chunk in memory (in small when it fits, else allocated): *out
 * NULL when it cannot be read (libhdf5 decides); -2 out of memory. */
static int read_chunk(const sp_vlen_file *f, uint64_t at, uint64_t n, uint8_t *small,
                      uint8_t **out) {
    *out = NULL;
    if (!readable(f, at, n)) return 0;
    uint8_t *bytes = n <= SMALL_CHUNK ? small : malloc((size_t)n);
    if (!bytes) return -2;
    if (pread(f->fd, bytes, (size_t)n, (off_t)at) == (ssize_t)n)
        *out = bytes;
    else if (bytes != small)
        free(bytes);
    return 0;
}

static void release_chunk(uint8_t *chunk, const uint8_t *small) {
    if (chunk != small) free(chunk);
}

/* The first chunk: its prefix says the version and where the messages are. */
static int walk_first(header_walk *w, uint64_t address, char *why, size_t why_size) {
    uint8_t prefix[6 + 16 + 4 + 8]; /* "OHDR", version, flags, times, phase change, size */
    if (!readable(w->file, address, sizeof prefix) ||
        pread(w->file->fd, prefix, sizeof prefix, (off_t)address) != (ssize_t)sizeof prefix)
        return 0;
    uint64_t at, size;
    if (prefix[0] == 1) { /* version 1: 16-byte prefix, then the messages */
        w->version = 1;
        at = 16;
        size = little_endian(prefix + 8, 4);
    } else if (memcmp(prefix, "OHDR", 4) == 0 && prefix[4] == 2) {
        w->version = 2;
        unsigned flags = prefix[5];
        w->creation_order = (flags & 0x04) != 0;
        at = 6 + ((flags & 0x20) ? 16 : 0) + ((flags & 0x10) ? 4 : 0);
        size_t field = (size_t)1 << (flags & 3);
        size = little_endian(prefix + at, field);
        at += field;
    } else {
        return 0; /* not an object header we know: libhdf5 decides */
    }
    uint8_t small[SMALL_CHUNK], *chunk;
    if (read_chunk(w->file, address, at + size, small, &chunk) < 0) return -2;
    int rc = chunk ? walk_messages(w, chunk, (size_t)at, (size_t)(at + size), why, why_size) : 0;
    release_chunk(chunk, small);
    return rc;
}

static int walk_continuation(header_walk *w, uint64_t address, uint64_t length, char *why,
                             size_t why_size) {
    uint8_t small[SMALL_CHUNK], *chunk;
    if (read_chunk(w->file, address, length, small, &chunk) < 0) return -2;
    if (!chunk) return 0;
    size_t at = 0, end = (size_t)length;
    if (w->version == 2) { /* "OCHK", messages, checksum */
        if (length < 8 || memcmp(chunk, "OCHK", 4) != 0) {
            release_chunk(chunk, small);
            return 0;
        }
        at = 4;
        end -= 4;
    }
    int rc = walk_messages(w, chunk, at, end, why, why_size);
    release_chunk(chunk, small);
    return rc;
}

int sp_header_problem(hid_t file, const char *path, char *why, size_t why_size) {
    sp_vlen_file f;
    H5O_info_t info;
    if (!sp_vlen_file_of(file, &f) ||
        H5Oget_info_by_name2(file, path, &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
        return 0;
    header_walk w = {.file = &f};
    int rc = walk_first(&w, info.addr, why, why_size);
    for (size_t i = 0; rc == 0 && i < w.num_pending; i++)
        rc = walk_continuation(&w, w.pending[i][0], w.pending[i][1], why, why_size);
    return rc;
}
