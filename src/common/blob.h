/*
 * A growable byte buffer for sending rows, names and thread tables between
 * ranks (same binary layout on both sides: ranks of one job share an ABI).
 */
#ifndef SP_COMMON_BLOB_H
#define SP_COMMON_BLOB_H

#include <stddef.h>
#include <stdint.h>

typedef struct sp_blob {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed; /* an allocation failed: the content is incomplete */
} sp_blob;

void sp_blob_put(sp_blob *b, const void *bytes, size_t n);
void sp_blob_put_string(sp_blob *b, const char *s); /* u32 length, then the bytes */
void sp_blob_free(sp_blob *b);

/* Reading back: a cursor that refuses to run past the end. */
typedef struct sp_blob_reader {
    const unsigned char *data;
    size_t size;
    size_t pos;
    int failed; /* ran past the end, or out of memory */
} sp_blob_reader;

void sp_blob_get(sp_blob_reader *r, void *out, size_t n);
char *sp_blob_get_string(sp_blob_reader *r); /* malloc'ed, never NULL unless failed */

#endif
