#include "common/blob.h"

#include <stdlib.h>
#include <string.h>

void sp_blob_put(sp_blob *b, const void *bytes, size_t n) {
    if (b->failed) return;
    if (b->size + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + n)
            capacity *= 2;
        unsigned char *grown = realloc(b->data, capacity);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
}

void sp_blob_put_string(sp_blob *b, const char *s) {
    uint32_t n = (uint32_t)strlen(s ? s : "");
    sp_blob_put(b, &n, sizeof n);
    sp_blob_put(b, s ? s : "", n);
}

void sp_blob_free(sp_blob *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

void sp_blob_get(sp_blob_reader *r, void *out, size_t n) {
    if (r->failed || n > r->size - r->pos) {
        r->failed = 1;
        memset(out, 0, n);
        return;
    }
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
}

char *sp_blob_get_string(sp_blob_reader *r) {
    uint32_t n = 0;
    sp_blob_get(r, &n, sizeof n);
    if (r->failed || n > r->size - r->pos) {
        r->failed = 1;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->failed = 1;
        return NULL;
    }
    memcpy(s, r->data + r->pos, n);
    s[n] = '\0';
    r->pos += n;
    return s;
}
