#include "export/protobuf.h"

#include <stdlib.h>
#include <string.h>

int sp_pb_reserve(sp_pb *b, size_t extra) {
    if (b->failed) return 0;
    if (b->cap - b->len >= extra) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra)
        cap *= 2;
    uint8_t *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->data = grown;
    b->cap = cap;
    return 1;
}

void sp_pb_free(sp_pb *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

void sp_pb_bytes(sp_pb *b, uint32_t field, const void *data, size_t n) {
    sp_pb_key(b, field, SP_PB_BYTES);
    sp_pb_varint(b, n);
    if (!n || !sp_pb_reserve(b, n)) return;
    memcpy(b->data + b->len, data, n);
    b->len += n;
}
