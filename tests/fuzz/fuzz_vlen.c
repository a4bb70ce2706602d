/*
 * The global heap collection parser and the element decoder of
 * src/format/vlen_check.c on untrusted bytes. Input: byte 0 picks the size
 * of lengths (4 or 8) and of addresses (4 or 8); the rest is a collection.
 * Checks that a collection that parses holds only objects inside it, each
 * index once, and that nothing overruns or leaks (ASan).
 */
#include <stdlib.h>
#include <string.h>

#include "format/vlen_check.h"
#include "fuzz_vlen.h"

void sp_fuzz_vlen_one(const uint8_t *data, size_t size) {
    if (size < 1) return;
    size_t length_size = data[0] & 1 ? 4 : 8, address_size = data[0] & 2 ? 4 : 8;
    const uint8_t *bytes = data + 1;
    size_t n = size - 1;
    char why[256];
    uint64_t claimed;
    int header = sp_gheap_header(bytes, n, length_size, &claimed, why, sizeof why);
    sp_gheap h;
    int rc = sp_gheap_parse(bytes, n, length_size, &h, why, sizeof why);
    if (rc == 0) {
        if (header != 0 || claimed != n) abort();
        uint64_t extent = 0;
        for (size_t i = 0; i < h.count; i++) {
            if (h.objects[i].index == 0 || h.objects[i].size > n) abort();
            for (size_t j = 0; j < i; j++)
                if (h.objects[j].index == h.objects[i].index) abort();
            if (sp_gheap_find(&h, h.objects[i].index) == NULL) abort();
            extent += h.objects[i].size;
        }
        if (extent > n) abort();
        sp_gheap_free(&h);
    } else if (h.objects != NULL || strlen(why) == 0) {
        abort(); /* a failed parse keeps nothing and says why */
    }
    size_t elem = sp_vlen_ref_size(address_size);
    for (size_t i = 0; i < n / elem; i++) {
        sp_vlen_ref r = sp_vlen_ref_decode(bytes, address_size, i);
        if (address_size == 4 && r.address > UINT32_MAX) abort();
    }
}
