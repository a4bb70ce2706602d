/*
 * The journal reader's harness and a synthetic journal to seed it: regions
 * "a" (1) and "b" (2); thread 0 has a: (100,200) (300,400) (500,open) and
 * b: (110,150) (310,350); thread 1 has a: (120,130). Monotonic clock, so
 * ticks are nanoseconds.
 */
#include "fuzz_journal.h"

#include <stdlib.h>
#include <string.h>

#include "recover/journal_read.h"

void sp_fuzz_journal_one(const uint8_t *data, size_t size) {
    sp_journal j;
    sp_error err = {SP_OK, ""};
    if (sp_journal_parse(data, size, "fuzz", &j, &err) != SP_OK) return;
    sp_journal *list[1] = {&j};
    sp_model m;
    memset(&m, 0, sizeof m);
    sp_recover_report report;
    if (sp_journal_build_model(list, 1, &m, &report, &err) == SP_OK && report.calls > m.num_events)
        abort(); /* the model holds every call counted */
    sp_model_clear(&m);
    sp_journal_free(&j);
}

static void put_block(unsigned char *file, uint64_t offset, uint64_t size, uint32_t kind,
                      uint32_t thread) {
    sp_journal_block b;
    memset(&b, 0, sizeof b);
    b.magic = SP_BLOCK_MAGIC;
    b.kind = kind;
    b.thread = thread;
    b.size = size;
    b.offset = offset;
    b.native_id = 1000 + thread;
    b.check = sp_journal_check(&b, offsetof(sp_journal_block, check), offset);
    memcpy(file + offset, &b, sizeof b);
}

static uint64_t put_name(unsigned char *file, uint64_t at, uint32_t region, const char *name) {
    sp_journal_name rec;
    memset(&rec, 0, sizeof rec);
    rec.magic = SP_NAME_MAGIC;
    rec.region = region;
    rec.line = 7;
    rec.name_length = (uint32_t)strlen(name);
    rec.file_length = 3;
    memcpy(file + at + sizeof rec, name, rec.name_length);
    memcpy(file + at + sizeof rec + rec.name_length, "x.c", 3);
    uint64_t check = sp_journal_check(&rec, offsetof(sp_journal_name, check), at);
    rec.check = sp_journal_check(file + at + sizeof rec, rec.name_length + 3, check);
    memcpy(file + at, &rec, sizeof rec);
    return at + ((sizeof rec + rec.name_length + 3 + 7) & ~7ull);
}

static uint64_t put_chunk(unsigned char *file, uint64_t at, uint32_t region, uint32_t thread,
                          const uint64_t *slots, uint32_t capacity) {
    sp_journal_chunk c = {SP_CHUNK_MAGIC, region, thread, capacity, 0, 0, 0, 0, 0, 0};
    c.check = sp_journal_check(&c, offsetof(sp_journal_chunk, check), at);
    for (uint32_t i = 0; i < capacity; i++)
        if (slots[2 * i + 1])
            c.calls_check ^= sp_journal_slot_mix(i, slots[2 * i], slots[2 * i + 1]);
    memcpy(file + at, &c, sizeof c);
    memcpy(file + at + sizeof c, slots, capacity * 16u);
    return at + sizeof c + capacity * 16u;
}

unsigned char *sp_fuzz_journal_seed(size_t *size) {
    size_t n = 4096 * 4;
    unsigned char *file = calloc(1, n);
    if (!file) return NULL;
    sp_journal_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, SP_JOURNAL_MAGIC, 8);
    h.version = SP_JOURNAL_VERSION;
    h.header_size = SP_JOURNAL_HEADER_SIZE;
    h.pid = 1;
    h.rank = -1;
    h.first_ns = 50;
    strcpy(h.output_path, "seed.h5");
    strcpy(h.host, "seed");
    h.check = sp_journal_check(&h, offsetof(sp_journal_header, check), 0);
    memcpy(file, &h, sizeof h);
    put_block(file, 4096, 4096, SP_BLOCK_NAMES, 0);
    uint64_t at = put_name(file, 4096 + sizeof(sp_journal_block), 1, "a");
    put_name(file, at, 2, "b");
    put_block(file, 8192, 8192, SP_BLOCK_CHUNKS, 0);
    const uint64_t a0[] = {100, 200, 300, 400, 500, 0, 0, 0};
    const uint64_t b0[] = {110, 150, 310, 350, 0, 0};
    const uint64_t a1[] = {120, 130, 0, 0};
    at = put_chunk(file, 8192 + sizeof(sp_journal_block), 1, 0, a0, 4);
    at = put_chunk(file, at, 2, 0, b0, 3);
    put_chunk(file, at, 1, 1, a1, 2);
    *size = n;
    return file;
}
