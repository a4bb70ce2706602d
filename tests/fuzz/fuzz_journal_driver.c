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

#define CHUNK_A1 8432u /* the third chunk's header (thread 1's "a") */
#define CHUNK_B0 8352u

typedef struct outcome {
    uint64_t a, b, open, torn, truncated, unnamed;
} outcome;

static uint64_t calls_of(const sp_model *m, const char *name) {
    uint64_t n = 0;
    for (size_t r = 0; r < m->num_rows; r++)
        if (strcmp(m->region_names[m->rows[r].region], name) == 0) n += m->rows[r].count;
    return n;
}

static outcome recover(const unsigned char *bytes, size_t size) {
    outcome o = {0, 0, 0, 0, 0, 0};
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

    o = recover(seed, CHUNK_A1 + 32 + 24); /* cut inside thread 1's second slot */
    CHECK(o.a == 3 && o.b == 2 && o.truncated > 0);
    o = recover(seed, CHUNK_A1 + 32 + 8); /* cut inside its first slot */
    CHECK(o.a == 2 && o.b == 2 && o.truncated > 0);

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
