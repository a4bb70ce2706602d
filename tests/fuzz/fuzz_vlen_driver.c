/*
 * The global heap parser without libFuzzer: a collection as libhdf5 writes
 * it (three strings and the free space) parses exactly; damaged ones are
 * refused with their reason; then every one-byte corruption and truncation
 * of it, and random inputs, go through the fuzz harness.
 * Usage: fuzz_vlen_driver SEED COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/vlen_check.h"
#include "fuzz_vlen.h"

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

static void put(uint8_t *p, uint64_t v, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* GCOL v1 of 4096 bytes: objects 1-3 hold "setup", "solve", "io", then free space. */
static size_t make_collection(uint8_t *c) {
    static const char *const strings[] = {"setup", "solve", "io"};
    memset(c, 0, 4096);
    memcpy(c, "GCOL", 4);
    c[4] = 1;
    put(c + 8, 4096, 8);
    size_t at = 16;
    for (int i = 0; i < 3; i++) {
        size_t len = strlen(strings[i]);
        put(c + at, (uint64_t)(i + 1), 2);
        put(c + at + 2, 1, 2);
        put(c + at + 8, len, 8);
        memcpy(c + at + 16, strings[i], len);
        at += 16 + ((len + 7) & ~(size_t)7);
    }
    put(c + at + 8, 4096 - at, 8); /* free space: index 0, the rest */
    return 4096;
}

static int expect(const uint8_t *c, size_t n, const char *want) {
    sp_gheap h;
    char why[256] = "";
    int rc = sp_gheap_parse(c, n, 8, &h, why, sizeof why);
    if (rc == 0) sp_gheap_free(&h);
    int ok = want ? rc == -1 && strcmp(why, want) == 0 : rc == 0;
    if (!ok) fprintf(stderr, "expected \"%s\", got %d \"%s\"\n", want ? want : "ok", rc, why);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    int failures = 0;
    uint8_t c[4096], input[1 + 4096];
    size_t n = make_collection(c);
    sp_gheap h;
    char why[256];
    if (sp_gheap_parse(c, n, 8, &h, why, sizeof why) != 0 || h.count != 3 ||
        sp_gheap_find(&h, 2) == NULL || sp_gheap_find(&h, 2)->size != 5 ||
        sp_gheap_find(&h, 4) != NULL) {
        fprintf(stderr, "the intact collection does not parse as written\n");
        failures++;
    }
    if (h.objects) sp_gheap_free(&h);
    uint8_t d[4096];
    memcpy(d, c, n);
    put(d + 16 + 8, 100000, 8); /* object 1 past the end */
    failures +=
        expect(d, n, "global heap object 1 (100000 bytes) runs past the end of its collection");
    memcpy(d, c, n);
    put(d + 16 + 24, 1, 2); /* object 2 renamed 1 */
    failures += expect(d, n, "global heap object 1 (5 bytes) is stored twice");
    memcpy(d, c, n);
    put(d + 88 + 8, 0, 8); /* free space of 0 bytes */
    failures +=
        expect(d, n, "the free space of a global heap collection claims 0 bytes, 4008 are left");
    memcpy(d, c, n);
    d[4] = 2;
    failures += expect(d, n, "a global heap collection of version 2");
    failures += expect(c, n - 8, "a global heap collection claims 4096 bytes, 4088 were read");
    for (long k = 0; k < count; k++) {
        size_t len = 1 + n;
        input[0] = (uint8_t)next();
        memcpy(input + 1, c, n);
        if (k % 3 == 0)
            input[1 + next() % n] = (uint8_t)next();
        else if (k % 3 == 1)
            len = 1 + next() % n;
        else
            for (size_t i = 1 + next() % 64; i < len; i += 1 + next() % 512)
                input[i] = (uint8_t)next();
        sp_fuzz_vlen_one(input, len);
    }
    printf("vlen: %d failures, %ld fuzz inputs\n", failures, count);
    return failures != 0;
}
