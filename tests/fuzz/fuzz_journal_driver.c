/*
 * The journal reader without libFuzzer. First exact checks on the seed
 * journal (fuzz_journal.c): what is recovered whole, what damage drops;
 * then random byte flips, zeroed ranges and truncations through the harness.
 * Usage: fuzz_journal_driver SEED COUNT      (exit 1 on a failed check)
 *        fuzz_journal_driver --write-seed FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_journal.h"
#include "recover/journal_read.h"

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_journal_driver: check failed at line %d: %s\n", __LINE__,        \
                    #cond);                                                                        \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#define CHUNK_A0     8256u /* the first chunk's header (thread 0's "a") */
#define CHUNK_A1     8464u /* the third chunk's header (thread 1's "a") */
#define CHUNK_B0     8368u
#define CHUNK_HEADER ((uint32_t)sizeof(sp_journal_chunk))

typedef struct outcome {
    uint64_t a, b, open, torn, truncated, unnamed, bad, failed_checks;
} outcome;

static uint64_t calls_of(const sp_model *m, const char *name) {
    uint64_t n = 0;
    for (size_t r = 0; r < m->num_rows; r++)
        if (strcmp(m->region_names[m->rows[r].region], name) == 0) n += m->rows[r].count;
    return n;
}

static outcome recover(const unsigned char *bytes, size_t size) {
    outcome o = {0, 0, 0, 0, 0, 0, 0, 0};
    sp_journal j;
    sp_error err = {SP_OK, ""};
    if (sp_journal_parse(bytes, size, "seed", &j, &err) != SP_OK) {
        o.a = o.b = UINT64_MAX;
        return o;
    }
    sp_journal *list[1] = {&j};
    sp_model m;
    memset(&m, 0, sizeof m);
    sp_recover_report report;
    if (sp_journal_build_model(list, 1, &m, &report, &err) == SP_OK) {
        o.a = calls_of(&m, "a");
        o.b = calls_of(&m, "b");
        o.open = report.open_calls;
    }
    o.torn = j.torn_chunks;
    o.truncated = j.truncated_bytes;
    o.unnamed = j.unnamed_calls;
    o.bad = j.bad_calls;
    o.failed_checks = j.failed_checks;
    sp_model_clear(&m);
    sp_journal_free(&j);
    return o;
}

static void exact_checks(const unsigned char *seed, size_t size) {
    unsigned char *copy = malloc(size);
    outcome o = recover(seed, size);
    CHECK(o.a == 3 && o.b == 2 && o.open == 1 && o.torn == 0);

    memcpy(copy, seed, size); /* a torn chunk header: that chunk alone is lost */
    copy[CHUNK_B0 + 4] ^= 0x40;
    o = recover(copy, size);
    CHECK(o.a == 3 && o.b == 0 && o.torn == 1);

    o = recover(seed, CHUNK_A1 + CHUNK_HEADER + 24); /* cut inside thread 1's second slot */
    CHECK(o.a == 3 && o.b == 2 && o.truncated > 0);
    o = recover(seed, CHUNK_A1 + CHUNK_HEADER + 8); /* cut inside its first slot */
    CHECK(o.a == 2 && o.b == 2 && o.truncated > 0);

    /* the calls check (issue 22 item 6): a damaged call drops its chunk's calls,
     * counted; an open call given an end is never taken for a call */
    uint64_t slot_bytes[2];
    memcpy(copy, seed, size);
    copy[CHUNK_A0 + CHUNK_HEADER + 8] ^= 0x01; /* the end of a's first call on thread 0 */
    o = recover(copy, size);
    CHECK(o.a == 1 && o.b == 2 && o.bad == 2 && o.failed_checks == 1);
    memcpy(copy, seed, size);
    slot_bytes[0] = 500, slot_bytes[1] = 650; /* the open call (500, 0) "ends" */
    memcpy(copy + CHUNK_A0 + CHUNK_HEADER + 32, slot_bytes, sizeof slot_bytes);
    o = recover(copy, size);
    CHECK(o.a == 1 && o.failed_checks == 1 && o.open == 0);
    /* ... unless it is the pending call: the run ended between its end and its check */
    sp_journal_chunk head;
    memcpy(&head, copy + CHUNK_A0, sizeof head);
    head.pending = 3;
    memcpy(copy + CHUNK_A0, &head, sizeof head);
    o = recover(copy, size);
    CHECK(o.a == 4 && o.failed_checks == 0 && o.open == 0);
    head.pending = 2; /* pending names another slot: damage */
    memcpy(copy + CHUNK_A0, &head, sizeof head);
    o = recover(copy, size);
    CHECK(o.a == 1 && o.failed_checks == 1);

    memcpy(copy, seed, size); /* names lost: their calls are reported, not invented */
    memset(copy + 4096, 0, 4096);
    o = recover(copy, size);
    CHECK(o.a == 0 && o.b == 0 && o.unnamed == 5);

    memcpy(copy, seed, size); /* a damaged header: not a journal at all */
    copy[40] ^= 1;
    o = recover(copy, size);
    CHECK(o.a == UINT64_MAX);
    o = recover(seed, 100);
    CHECK(o.a == UINT64_MAX);
    free(copy);
}

static uint64_t state;
static uint32_t next(void) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

int main(int argc, char **argv) {
    size_t size = 0;
    unsigned char *seed = sp_fuzz_journal_seed(&size);
    if (!seed) return 1;
    if (argc == 3 && strcmp(argv[1], "--write-seed") == 0) {
        FILE *f = fopen(argv[2], "wb");
        int ok = f && fwrite(seed, 1, size, f) == size;
        if (f) ok &= fclose(f) == 0;
        free(seed);
        return ok ? 0 : 1;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_journal_driver SEED COUNT | --write-seed FILE\n");
        return 2;
    }
    state = strtoull(argv[1], NULL, 10);
    long count = atol(argv[2]);
    exact_checks(seed, size);
    unsigned char *copy = malloc(size);
    for (long i = 0; i < count && copy; i++) {
        memcpy(copy, seed, size);
        size_t n = size;
        switch (next() % 3) {
        case 0:
            for (int k = 0; k < 1 + (int)(next() % 8); k++)
                copy[next() % size] ^= (unsigned char)(1u << (next() % 8));
            break;
        case 1: {
            size_t at = next() % size, len = next() % 256;
            if (at + len > size) len = size - at;
            memset(copy + at, (int)(next() & 0xff), len);
            break;
        }
        default:
            n = next() % size;
            break;
        }
        sp_fuzz_journal_one(copy, n);
    }
    free(copy);
    free(seed);
    if (failures) return 1;
    printf("fuzz_journal_driver: exact checks passed, %ld mutated journals read\n", count);
    return 0;
}
