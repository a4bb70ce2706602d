/*
 * A minimal protocol-buffers encoder for the perfetto export: varints and
 * length-delimited fields into a growable byte buffer (wire types 0 and 2
 * are all a trace of slices needs). Allocation failures are sticky.
 */
#ifndef SP_EXPORT_PROTOBUF_H
#define SP_EXPORT_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct sp_pb {
    uint8_t *data;
    size_t len, cap;
    int failed;
} sp_pb;

enum { SP_PB_VARINT = 0, SP_PB_BYTES = 2 };

int sp_pb_reserve(sp_pb *b, size_t extra);
void sp_pb_free(sp_pb *b);

/* Bytes the varint encoding of v takes (1 to 10). */
static inline size_t sp_pb_varint_size(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static inline void sp_pb_varint(sp_pb *b, uint64_t v) {
    if (!sp_pb_reserve(b, 10)) return;
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

static inline void sp_pb_key(sp_pb *b, uint32_t field, int wire) {
    sp_pb_varint(b, ((uint64_t)field << 3) | (uint64_t)wire);
}

/* A varint field (int64 values are written as their two's complement, as protobuf does). */
static inline void sp_pb_uint(sp_pb *b, uint32_t field, uint64_t v) {
    sp_pb_key(b, field, SP_PB_VARINT);
    sp_pb_varint(b, v);
}

void sp_pb_bytes(sp_pb *b, uint32_t field, const void *data, size_t n);

/* A nested message: its encoded bytes as a length-delimited field. */
static inline void sp_pb_message(sp_pb *b, uint32_t field, const sp_pb *sub) {
    if (sub->failed) b->failed = 1;
    sp_pb_bytes(b, field, sub->data, sub->len);
}

#endif
