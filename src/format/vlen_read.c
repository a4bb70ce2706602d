/*
 * sp_rd_check_vlen_strings(): the raw elements of a string dataset and the
 * global heap collections they name, read with pread() on the file's own
 * descriptor and checked by vlen_check.c before libhdf5 dereferences them.
 * Layouts and filters it cannot read itself (compact datasets, filters
 * other than shuffle, deflate and fletcher32, a user block) are left to
 * libhdf5 unchecked; the CLI still contains what libhdf5 does with them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "format/guarded_driver.h"
#include "format/h5_read.h"
#include "format/vlen_check.h"
#include "format/vlen_facts.h"

/* A collection claiming more than this is damage (HDF5 makes them 4 KiB up
 * to the size of the largest object, and names are not that large). */
#define MAX_COLLECTION_BYTES (1ull << 30)

typedef sp_vlen_file file_facts;

typedef enum outcome { CHECKED = 0, UNCHECKED, DAMAGED, NO_MEMORY } outcome;

static outcome read_at(const file_facts *f, uint64_t address, uint8_t *buf, size_t n) {
    if (address > f->eof || n > f->eof - address) return DAMAGED;
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(f->fd, buf + done, n - done, (off_t)(address + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return DAMAGED;
        done += (size_t)got;
    }
    return CHECKED;
}

static void unshuffle(const uint8_t *in, uint8_t *out, size_t n, size_t elem) {
    size_t count = n / elem;
    for (size_t b = 0; b < elem; b++)
        for (size_t i = 0; i < count; i++)
            out[i * elem + b] = in[b * count + i];
    memcpy(out + count * elem, in + count * elem, n - count * elem);
}

/* Undoes the chunk's filters (the last applied first) into out (want bytes). */
static outcome unfilter(hid_t dcpl, unsigned mask, uint8_t *raw, size_t raw_n, uint8_t *out,
                        size_t want, size_t elem) {
    int nfilters = H5Pget_nfilters(dcpl);
    uint8_t *cur = raw, *tmp = NULL;
    size_t cur_n = raw_n;
    outcome o = CHECKED;
    for (int k = nfilters - 1; k >= 0 && o == CHECKED; k--) {
        if (mask & (1u << k)) continue;
        unsigned flags;
        size_t cd_n = 0;
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)k, &flags, &cd_n, NULL, 0, NULL, NULL);
        if (id == H5Z_FILTER_FLETCHER32) {
            if (cur_n < 4) return DAMAGED;
            cur_n -= 4;
            continue;
        }
        if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE) return UNCHECKED;
        uint8_t *next = malloc(want ? want : 1);
        if (!next) {
            o = NO_MEMORY;
            break;
        }
        if (id == H5Z_FILTER_DEFLATE) {
            uLongf got = want;
            if (uncompress(next, &got, cur, cur_n) != Z_OK || got != want) o = DAMAGED;
            cur_n = want;
        } else if (cur_n != want) {
            o = DAMAGED;
        } else {
            unshuffle(cur, next, want, elem);
        }
        free(tmp);
        tmp = cur = next;
    }
    if (o == CHECKED && cur_n != want) o = DAMAGED;
    if (o == CHECKED) memcpy(out, cur, want);
    free(tmp);
    return o;
}

static outcome read_chunked(const file_facts *f, hid_t ds, hid_t dcpl, uint8_t *raw, size_t n,
                            size_t elem) {
    hsize_t chunk = 0, num_chunks = 0;
    if (H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk == 0) return DAMAGED;
    hid_t space = H5Dget_space(ds);
    if (space < 0) return DAMAGED;
    if (H5Dget_num_chunks(ds, space, &num_chunks) < 0) {
        H5Sclose(space);
        return DAMAGED;
    }
    uint8_t *buf = NULL;
    outcome o = CHECKED;
    for (hsize_t c = 0; c < num_chunks && o == CHECKED; c++) {
        hsize_t offset = 0;
        unsigned mask = 0;
        haddr_t address = 0;
        hsize_t stored = 0;
        if (H5Dget_chunk_info(ds, space, c, &offset, &mask, &address, &stored) < 0 ||
            offset % chunk || address > f->eof || stored > f->eof - address) {
            o = DAMAGED;
            break;
        }
        if (offset >= n) continue; /* past the extent: never read */
        size_t count = chunk < n - offset ? (size_t)chunk : (size_t)(n - offset);
        size_t want = (size_t)chunk * elem;
        uint8_t *grown = realloc(buf, stored ? stored : 1);
        uint8_t *whole = malloc(want ? want : 1);
        if (!grown || !whole) {
            free(whole);
            if (grown) buf = grown;
            o = NO_MEMORY;
            break;
        }
        buf = grown;
        o = read_at(f, address, buf, stored);
        if (o == CHECKED) o = unfilter(dcpl, mask, buf, stored, whole, want, elem);
        if (o == CHECKED) memcpy(raw + offset * elem, whole, count * elem);
        free(whole);
    }
    free(buf);
    H5Sclose(space);
    return o;
}

/* The n stored elements of ds into raw (zeroed: unwritten chunks read as NULL). */
static outcome read_elements(const file_facts *f, hid_t ds, uint8_t *raw, size_t n, size_t elem) {
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0) return DAMAGED;
    outcome o = UNCHECKED;
    H5D_layout_t layout = H5Pget_layout(dcpl);
    if (layout == H5D_CONTIGUOUS) {
        haddr_t address = H5Dget_offset(ds);
        o = address == HADDR_UNDEF ? CHECKED /* never written: fill values */
                                   : read_at(f, address, raw, n * elem);
    } else if (layout == H5D_CHUNKED) {
        o = read_chunked(f, ds, dcpl, raw, n, elem);
    }
    H5Pclose(dcpl);
    return o;
}

typedef sp_vlen_heaps heaps;

void sp_vlen_heaps_free(heaps *h) {
    for (size_t i = 0; i < h->count; i++)
        sp_gheap_free(&h->list[i]);
    free(h->list);
}

static int compare_objects(const void *a, const void *b) {
    const sp_gheap_object *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* h's objects are sorted by index; libhdf5 numbers them 1, 2, ... in order. */
static const sp_gheap_object *find_object(const sp_gheap *h, uint32_t index) {
    if (index == 0 || index > UINT16_MAX) return NULL;
    if (index <= h->count && h->objects[index - 1].index == index) return &h->objects[index - 1];
    sp_gheap_object key = {(uint16_t)index, 0};
    return bsearch(&key, h->objects, h->count, sizeof key, compare_objects);
}

static void sort_objects(sp_gheap *g) {
    for (size_t i = 1; i < g->count; i++)
        if (g->objects[i - 1].index > g->objects[i].index) {
            qsort(g->objects, g->count, sizeof *g->objects, compare_objects);
            return;
        }
}

/* The collection at `address`, parsed once; NULL with *o set otherwise. */
static const sp_gheap *collection(const file_facts *f, heaps *h, uint64_t address, outcome *o,
                                  char *why, size_t why_size) {
    if (h->last < h->count && h->list[h->last].address == address) return &h->list[h->last];
    for (size_t i = h->count; i-- > 0;)
        if (h->list[i].address == address) {
            h->last = i;
            return &h->list[i];
        }
    uint8_t head[16];
    uint64_t size = 0;
    size_t head_n = 8 + f->length_size;
    *o = read_at(f, address, head, head_n);
    if (*o == CHECKED && sp_gheap_header(head, head_n, f->length_size, &size, why, why_size) < 0)
        *o = DAMAGED;
    if (*o == CHECKED && (size > MAX_COLLECTION_BYTES || size > f->eof - address)) {
        snprintf(why, why_size, "a global heap collection claims %" PRIu64 " bytes, past the file",
                 size);
        *o = DAMAGED;
    }
    if (*o != CHECKED) {
        if (why[0] == '\0') snprintf(why, why_size, "a string points past the end of the file");
        return NULL;
    }
    if (h->count == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 8;
        sp_gheap *grown = realloc(h->list, cap * sizeof *grown);
        if (!grown) {
            *o = NO_MEMORY;
            return NULL;
        }
        h->list = grown;
        h->cap = cap;
    }
    uint8_t *bytes = malloc((size_t)size);
    if (!bytes) {
        *o = NO_MEMORY;
        return NULL;
    }
    sp_gheap *g = &h->list[h->count];
    *o = read_at(f, address, bytes, (size_t)size);
    int rc =
        *o == CHECKED ? sp_gheap_parse(bytes, (size_t)size, f->length_size, g, why, why_size) : -1;
    free(bytes);
    if (rc == -2) *o = NO_MEMORY;
    if (rc == -1 && *o == CHECKED) *o = DAMAGED;
    if (rc != 0) return NULL;
    g->address = address;
    sort_objects(g);
    h->last = h->count++;
    return g;
}

int sp_vlen_ref_check(const sp_vlen_file *f, sp_vlen_heaps *h, sp_vlen_ref r, char *why,
                      size_t why_size) {
    why[0] = '\0';
    if (r.address == 0) { /* a NULL string */
        if (!r.length) return 0;
        snprintf(why, why_size, "claims %" PRIu32 " bytes but no storage", r.length);
        return -1;
    }
    if (r.length > SP_MAX_STRING_BYTES) {
        snprintf(why, why_size,
                 "claims %" PRIu32 " bytes, more than the %u MiB a string of a profile may hold",
                 r.length, SP_MAX_STRING_BYTES >> 20);
        return -1;
    }
    outcome o = CHECKED;
    char reason[200] = "";
    const sp_gheap *g = collection(f, h, r.address, &o, reason, sizeof reason);
    const sp_gheap_object *obj = g ? find_object(g, r.index) : NULL;
    if (o == NO_MEMORY) return -2;
    if (!g)
        snprintf(why, why_size, ": %s", reason);
    else if (!obj)
        snprintf(why, why_size,
                 "names global heap object %" PRIu32 ", which its collection does not hold",
                 r.index);
    else if (obj->size != r.length)
        snprintf(why, why_size, "claims %" PRIu32 " bytes but its global heap object holds %" PRIu64,
                 r.length, obj->size);
    return why[0] ? -1 : 0;
}

static sp_status check_refs(sp_rd *rd, const file_facts *f, const char *path, const uint8_t *raw,
                            size_t n) {
    heaps h = {0};
    sp_status st = SP_OK;
    char why[256];
    for (size_t i = 0; i < n && !st; i++) {
        int rc = sp_vlen_ref_check(f, &h, sp_vlen_ref_decode(raw, f->address_size, i), why,
                                   sizeof why);
        if (rc == -2)
            st = sp_rd_no_memory(rd);
        else if (rc == -1)
            st = sp_rd_damaged(rd, "string %zu of %s%s%s", i, path, why[0] == ':' ? "" : " ", why);
    }
    sp_vlen_heaps_free(&h);
    return st;
}

int sp_vlen_file_of(hid_t file, sp_vlen_file *f) {
    memset(f, 0, sizeof *f);
    hsize_t userblock = 1, eof = 0;
    hid_t fcpl = H5Fget_create_plist(file);
    int sizes = fcpl >= 0 && H5Pget_sizes(fcpl, &f->address_size, &f->length_size) >= 0 &&
                H5Pget_userblock(fcpl, &userblock) >= 0;
    if (fcpl >= 0) H5Pclose(fcpl);
    f->fd = sp_guarded_fd(file);
    if (!sizes || f->fd < 0 || userblock != 0 || f->address_size < 2 || f->address_size > 8 ||
        f->length_size < 2 || f->length_size > 8 || H5Fget_filesize(file, &eof) < 0)
        return 0; /* not a file these checks can read: libhdf5 alone */
    f->eof = eof;
    return 1;
}

sp_status sp_rd_check_vlen_strings(sp_rd *rd, hid_t ds, const char *path, size_t n) {
    if (n == 0) return SP_OK;
    file_facts f;
    if (!sp_vlen_file_of(rd->file, &f)) return SP_OK;
    size_t elem = sp_vlen_ref_size(f.address_size);
    if (n > SIZE_MAX / elem) return sp_rd_no_memory(rd);
    uint8_t *raw = calloc(n, elem);
    if (!raw) return sp_rd_no_memory(rd);
    outcome o = read_elements(&f, ds, raw, n, elem);
    sp_status st = SP_OK;
    if (o == NO_MEMORY)
        st = sp_rd_no_memory(rd);
    else if (o == DAMAGED)
        st = sp_rd_damaged(rd, "the strings of %s cannot be read from the file", path);
    else if (o == CHECKED)
        st = check_refs(rd, &f, path, raw, n);
    free(raw);
    return st;
}
