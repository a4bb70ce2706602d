#include "format/vlen_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "GCOL", version, 3 reserved bytes, the collection size. */
#define HEADER_FIXED 8
/* Per object: index (2), reference count (2), reserved (4), size. */
#define OBJECT_FIXED 8

static uint64_t little_endian(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t why_size, const char *fmt,
                                                      ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return -1;
}

int sp_gheap_header(const uint8_t *bytes, size_t n, size_t length_size, uint64_t *size, char *why,
                    size_t why_size) {
    if (length_size < 2 || length_size > 8)
        return fail(why, why_size, "the file stores lengths in %zu bytes", length_size);
    if (n < HEADER_FIXED + length_size)
        return fail(why, why_size, "a global heap collection of only %zu bytes", n);
    if (memcmp(bytes, "GCOL", 4) != 0)
        return fail(why, why_size, "a string points to no global heap collection");
    if (bytes[4] != 1)
        return fail(why, why_size, "a global heap collection of version %u", (unsigned)bytes[4]);
    *size = little_endian(bytes + HEADER_FIXED, length_size);
    if (*size < HEADER_FIXED + length_size)
        return fail(why, why_size, "a global heap collection claiming %" PRIu64 " bytes", *size);
    return 0;
}

static int add_object(sp_gheap *out, size_t *cap, uint16_t index, uint64_t size) {
    if (out->count == *cap) {
        size_t grown = *cap ? *cap * 2 : 16;
        sp_gheap_object *p = realloc(out->objects, grown * sizeof *p);
        if (!p) return -1;
        out->objects = p;
        *cap = grown;
    }
    out->objects[out->count++] = (sp_gheap_object){index, size};
    return 0;
}

int sp_gheap_parse(const uint8_t *bytes, size_t n, size_t length_size, sp_gheap *out, char *why,
                   size_t why_size) {
    uint64_t size;
    sp_gheap none;
    if (!out) out = &none; /* a check only: nothing is kept */
    int keep = out != &none;
    out->objects = NULL;
    out->count = 0;
    if (sp_gheap_header(bytes, n, length_size, &size, why, why_size) < 0) return -1;
    if (size != n)
        return fail(why, why_size,
                    "a global heap collection claims %" PRIu64 " bytes, %zu were read", size, n);
    out->size = size;
    size_t cap = 0, at = HEADER_FIXED + length_size, object_header = OBJECT_FIXED + length_size;
    uint8_t seen[65536 / 8];
    memset(seen, 0, sizeof seen);
    while (n - at >= object_header) {
        uint16_t index = (uint16_t)little_endian(bytes + at, 2);
        uint64_t object_size = little_endian(bytes + at + OBJECT_FIXED, length_size);
        if (index == 0) { /* free space, its header included; libhdf5 walks on after it */
            if (object_size < object_header || object_size > n - at) {
                sp_gheap_free(out);
                return fail(why, why_size,
                            "the free space of a global heap collection claims %" PRIu64
                            " bytes, %zu are left",
                            object_size, n - at);
            }
            at += (size_t)object_size;
            continue;
        }
        uint64_t padded = object_size > UINT64_MAX - 7 ? UINT64_MAX : (object_size + 7) & ~7ull;
        const char *problem = NULL;
        if (padded > n - at - object_header)
            problem = "runs past the end of its collection";
        else if (seen[index / 8] & (1u << (index % 8)))
            problem = "is stored twice";
        if (problem) {
            sp_gheap_free(out);
            return fail(why, why_size, "global heap object %u (%" PRIu64 " bytes) %s",
                        (unsigned)index, object_size, problem);
        }
        seen[index / 8] |= (uint8_t)(1u << (index % 8));
        if (keep && add_object(out, &cap, index, object_size) < 0) {
            sp_gheap_free(out);
            snprintf(why, why_size, "out of memory");
            return -2;
        }
        at += object_header + (size_t)padded;
    }
    return 0;
}

void sp_gheap_free(sp_gheap *h) {
    free(h->objects);
    h->objects = NULL;
    h->count = 0;
}

const sp_gheap_object *sp_gheap_find(const sp_gheap *h, uint32_t index) {
    for (size_t i = 0; i < h->count; i++)
        if (h->objects[i].index == index) return &h->objects[i];
    return NULL;
}

sp_vlen_ref sp_vlen_ref_decode(const uint8_t *raw, size_t address_size, size_t i) {
    const uint8_t *p = raw + i * sp_vlen_ref_size(address_size);
    sp_vlen_ref r;
    r.length = (uint32_t)little_endian(p, 4);
    r.address = little_endian(p + 4, address_size);
    r.index = (uint32_t)little_endian(p + 4 + address_size, 4);
    return r;
}
