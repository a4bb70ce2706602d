/*
 * Variable-length strings checked against the file before libhdf5 reads
 * them (issue 10 item 5, docs/robustness.md). libhdf5 1.10 trusts what it
 * finds: H5HG_read copies a heap object's stored size into a buffer sized
 * by the string's stored length, and indexes its object table with the
 * stored index unchecked, so a flipped byte in a string column or in a
 * global heap collection overruns memory. Before a string dataset is read,
 * its raw elements (length, collection address, object index) are read from
 * the file and each referenced collection is parsed here: its signature,
 * version and size within the file, every object inside it, and each string
 * naming an object that exists with exactly its length. Whatever does not
 * hold is damage, reported before libhdf5 touches the heap.
 *
 * The parsers below work on bytes only (fuzzed by fuzz_vlen); reading the
 * bytes from the file is vlen_check.c's sp_rd_check_vlen_strings().
 */
#ifndef SP_FORMAT_VLEN_CHECK_H
#define SP_FORMAT_VLEN_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* One object of a global heap collection: its index and stored size. */
typedef struct sp_gheap_object {
    uint16_t index;
    uint64_t size;
} sp_gheap_object;

/* A collection's objects, in the order stored. */
typedef struct sp_gheap {
    uint64_t address; /* of the collection, relative to the file's base */
    uint64_t size;    /* the collection size it claims */
    sp_gheap_object *objects;
    size_t count;
} sp_gheap;

/* The "GCOL" header: 0 and *size (the whole collection's bytes), or -1 with
 * the reason in why. `length_size` is the file's size of lengths (8 mostly). */
int sp_gheap_header(const uint8_t *bytes, size_t n, size_t length_size, uint64_t *size, char *why,
                    size_t why_size);

/* Parses the whole collection (n bytes, its claimed size): every object's
 * header and extent must lie inside it, no index twice. 0; -1 damage, with
 * the reason in why; -2 out of memory. With out NULL it only checks, and
 * allocates nothing. */
int sp_gheap_parse(const uint8_t *bytes, size_t n, size_t length_size, sp_gheap *out, char *why,
                   size_t why_size);
void sp_gheap_free(sp_gheap *h);

/* The object `index` of h, or NULL. */
const sp_gheap_object *sp_gheap_find(const sp_gheap *h, uint32_t index);

/* One stored variable-length element: sequence length, then the heap id
 * (collection address of `address_size` bytes, object index). */
typedef struct sp_vlen_ref {
    uint32_t length;
    uint64_t address;
    uint32_t index;
} sp_vlen_ref;

/* Bytes of one stored element. */
static inline size_t sp_vlen_ref_size(size_t address_size) {
    return 4 + address_size + 4;
}

/* Decodes element i of raw (little-endian, as HDF5 stores them). */
sp_vlen_ref sp_vlen_ref_decode(const uint8_t *raw, size_t address_size, size_t i);

#endif
