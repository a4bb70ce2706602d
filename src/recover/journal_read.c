#include "recover/journal_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_BYTES 16u
#define STEP       16u /* chunks start on 16-byte boundaries */

static int add_chunk(sp_journal *j, const sp_journal_chunk_ref *c, size_t *max) {
    if (j->num_chunks == *max) {
        size_t n = *max ? *max * 2 : 64;
        sp_journal_chunk_ref *grown = realloc(j->chunks, n * sizeof *grown);
        if (!grown) return 0;
        j->chunks = grown;
        *max = n;
    }
    j->chunks[j->num_chunks++] = *c;
    return 1;
}

static int note_thread(sp_journal *j, uint32_t index, int64_t native_id) {
    for (size_t i = 0; i < j->num_threads; i++)
        if (j->threads[i].index == index) {
            if (native_id) j->threads[i].native_id = native_id;
            return 1;
        }
    sp_journal_thread *grown = realloc(j->threads, (j->num_threads + 1) * sizeof *grown);
    if (!grown) return 0;
    j->threads = grown;
    j->threads[j->num_threads].index = index;
    j->threads[j->num_threads].native_id = native_id;
    j->num_threads++;
    return 1;
}

static int add_region(sp_journal *j, uint32_t id, const char *name, size_t name_length,
                      const char *file, size_t file_length, int32_t line) {
    if (id == 0 || id > (1u << 24)) return 1; /* not an id the recorder issues */
    if (id >= j->num_regions) {
        uint32_t n = j->num_regions ? j->num_regions : 64;
        while (n <= id)
            n *= 2;
        sp_journal_region *grown = realloc(j->regions, n * sizeof *grown);
        if (!grown) return 0;
        memset(grown + j->num_regions, 0, (n - j->num_regions) * sizeof *grown);
        j->regions = grown;
        j->num_regions = n;
    }
    sp_journal_region *r = &j->regions[id];
    if (r->name) return 1; /* a duplicate record: the first wins */
    r->name = malloc(name_length + 1);
    r->file = malloc(file_length + 1);
    if (!r->name || !r->file) return 0;
    memcpy(r->name, name, name_length);
    r->name[name_length] = '\0';
    memcpy(r->file, file, file_length);
    r->file[file_length] = '\0';
    r->line = line;
    return 1;
}

static int is_zero(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Region records in [start, end): whole records are kept, damage is skipped. */
static int parse_names(sp_journal *j, uint64_t start, uint64_t end) {
    uint64_t p = start;
    int in_damage = 0;
    while (p + sizeof(sp_journal_name) <= end) {
        sp_journal_name rec;
        memcpy(&rec, j->bytes + p, sizeof rec);
        uint64_t text = (uint64_t)rec.name_length + rec.file_length;
        int whole = rec.magic == SP_NAME_MAGIC && text <= end - p - sizeof rec;
        if (whole) {
            uint64_t check = sp_journal_check(&rec, offsetof(sp_journal_name, check), p);
            whole = sp_journal_check(j->bytes + p + sizeof rec, text, check) == rec.check;
        }
        if (whole) {
            const char *name = (const char *)j->bytes + p + sizeof rec;
            if (!add_region(j, rec.region, name, rec.name_length, name + rec.name_length,
                            rec.file_length, rec.line))
                return 0;
            p += (sizeof rec + text + 7) & ~7ull;
            in_damage = 0;
            continue;
        }
        if (is_zero(j->bytes + p, sizeof rec)) break; /* the unused rest of the block */
        if (!in_damage) j->torn_chunks++;
        in_damage = 1;
        j->damaged_bytes += 8;
        p += 8;
    }
    return 1;
}

static int block_at(const sp_journal *j, uint64_t p, sp_journal_block *b) {
    if (p % SP_JOURNAL_ALIGN || p + sizeof *b > j->size) return 0;
    memcpy(b, j->bytes + p, sizeof *b);
    return b->magic == SP_BLOCK_MAGIC && b->offset == p &&
           b->check == sp_journal_check(b, offsetof(sp_journal_block, check), p) &&
           b->size >= SP_JOURNAL_ALIGN && b->size % SP_JOURNAL_ALIGN == 0 &&
           b->size <= ((uint64_t)1 << 40);
}

static int chunk_at(const sp_journal *j, uint64_t p, sp_journal_chunk *c) {
    size_t bytes = SP_JOURNAL_CHUNK_BYTES(j->header.version);
    if (p + bytes > j->size) return 0;
    memset(c, 0, sizeof *c);
    memcpy(c, j->bytes + p, bytes);
    return c->magic == SP_CHUNK_MAGIC && c->capacity > 0 && c->region > 0 &&
           c->check == sp_journal_check(c, offsetof(sp_journal_chunk, check), p);
}

/* A slot's share of its chunk's check in this journal's version. */
static uint64_t slot_mix(const sp_journal *j, uint64_t index, uint64_t start, uint64_t end) {
    return j->header.version == 2 ? sp_journal_slot_mix_v2(index, start, end)
                                  : sp_journal_slot_mix(index, start, end);
}

/* Whether a whole chunk's completed calls are the ones the recorder wrote
 * (version 2 and 3): the XOR of their shares is the stored check, or differs from
 * it by exactly the share of the pending slot (the run ended between that
 * call's end and its check). *completed: the chunk's completed slots. */
static int calls_check_ok(const sp_journal *j, const sp_journal_chunk *c, uint64_t slots,
                          uint64_t *completed) {
    uint64_t acc = 0, n = 0, s[2];
    for (uint32_t i = 0; i < c->capacity; i++) {
        memcpy(s, j->bytes + slots + (uint64_t)i * SLOT_BYTES, sizeof s);
        if (!s[1]) continue;
        acc ^= slot_mix(j, i, s[0], s[1]);
        n++;
    }
    *completed = n;
    if (j->header.version < 2 || acc == c->calls_check) return 1;
    if (c->pending == 0 || c->pending > c->capacity) return 0;
    memcpy(s, j->bytes + slots + (uint64_t)(c->pending - 1) * SLOT_BYTES, sizeof s);
    return s[1] && (acc ^ c->calls_check) == slot_mix(j, c->pending - 1, s[0], s[1]);
}

/* Walks the blocks and chunks after the header. A position is either a block
 * header (on a 4 KiB boundary), a chunk header, unused zeros, or damage. */
static int parse_body(sp_journal *j) {
    size_t max_chunks = 0;
    uint64_t p = SP_JOURNAL_HEADER_SIZE;
    int in_damage = 0;
    while (p + STEP <= j->size) {
        sp_journal_block b;
        sp_journal_chunk c;
        if (block_at(j, p, &b)) {
            in_damage = 0;
            uint64_t end = p + b.size;
            if (end > j->size) {
                j->truncated_bytes += end - j->size;
                end = j->size;
            }
            if (b.kind == SP_BLOCK_CHUNKS) {
                if (!note_thread(j, b.thread, b.native_id)) return 0;
                p += sizeof b;
            } else {
                if (b.kind == SP_BLOCK_NAMES && !parse_names(j, p + sizeof b, end)) return 0;
                p = end;
            }
            continue;
        }
        if (chunk_at(j, p, &c)) {
            in_damage = 0;
            uint64_t slots = p + SP_JOURNAL_CHUNK_BYTES(j->header.version);
            uint64_t whole = (j->size - slots) / SLOT_BYTES;
            uint32_t capacity = c.capacity;
            if (capacity > whole) { /* the file ends inside the chunk */
                j->truncated_bytes += (capacity - whole) * (uint64_t)SLOT_BYTES;
                capacity = (uint32_t)whole;
            }
            sp_journal_chunk_ref ref = {c.region, c.thread, c.sequence, capacity, slots};
            uint64_t completed = 0;
            if (!note_thread(j, c.thread, 0)) return 0;
            if (capacity < c.capacity || calls_check_ok(j, &c, slots, &completed)) {
                if (!add_chunk(j, &ref, &max_chunks)) return 0; /* a cut chunk cannot be checked */
            } else { /* damaged calls: dropped and counted, never taken for calls */
                j->failed_checks++;
                j->bad_calls += completed;
            }
            p = slots + (uint64_t)capacity * SLOT_BYTES;
            if (capacity < c.capacity) break;
            continue;
        }
        if (!is_zero(j->bytes + p, STEP)) {
            if (!in_damage) j->torn_chunks++;
            in_damage = 1;
            j->damaged_bytes += STEP;
        }
        p += STEP;
    }
    return 1;
}

/* ns per tick from the first and the latest calibration point. */
static void choose_conversion(sp_journal *j) {
    const sp_journal_header *h = &j->header;
    j->ns_per_tick = 1.0;
    j->last_ns = h->first_ns;
    if (h->latest_sequence % 2 == 0 && h->latest_ns > h->first_ns) j->last_ns = h->latest_ns;
    if (h->ending_ns > j->last_ns) j->last_ns = h->ending_ns;
    if (!h->clock_is_tsc) return;
    if (h->latest_sequence % 2 == 0 && h->latest_ticks > h->first_ticks &&
        h->latest_ns > h->first_ns) {
        double slope =
            (double)(h->latest_ns - h->first_ns) / (double)(h->latest_ticks - h->first_ticks);
        if (slope > 1e-3 && slope < 1e3) j->ns_per_tick = slope;
    }
}

sp_status sp_journal_parse(const unsigned char *bytes, size_t size, const char *what, sp_journal *j,
                           sp_error *err) {
    memset(j, 0, sizeof *j);
    j->bytes = bytes;
    j->size = size;
    if (size < SP_JOURNAL_HEADER_SIZE)
        return sp_error_set(err, SP_ERR_DAMAGED,
                            "%s is not a scope-profiler journal (%zu bytes, shorter than its "
                            "header)",
                            what, size);
    memcpy(&j->header, bytes, sizeof j->header);
    sp_journal_header *h = &j->header;
    if (memcmp(h->magic, SP_JOURNAL_MAGIC, 8) != 0)
        return sp_error_set(err, SP_ERR_DAMAGED,
                            "%s is not a scope-profiler journal (no journal signature)", what);
    if (h->version < 1 || h->version > SP_JOURNAL_VERSION ||
        h->header_size != SP_JOURNAL_HEADER_SIZE)
        return sp_error_set(err, SP_ERR_DAMAGED,
                            "%s is a journal of version %u, which this version cannot read", what,
                            h->version);
    if (h->check != sp_journal_check(h, offsetof(sp_journal_header, check), 0))
        return sp_error_set(err, SP_ERR_DAMAGED,
                            "%s: the journal's header is damaged (its check value does not match)",
                            what);
    h->output_path[sizeof h->output_path - 1] = '\0';
    h->label[sizeof h->label - 1] = '\0';
    h->host[sizeof h->host - 1] = '\0';
    choose_conversion(j);
    if (!parse_body(j)) {
        sp_journal_free(j);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory reading %s", what);
    }
    return SP_OK;
}

void sp_journal_free(sp_journal *j) {
    for (uint32_t i = 0; i < j->num_regions; i++) {
        free(j->regions[i].name);
        free(j->regions[i].file);
    }
    free(j->regions);
    free(j->chunks);
    free(j->threads);
    memset(j, 0, sizeof *j);
}

static const char *signal_name(int sig) {
    switch (sig) {
    case 1:
        return "SIGHUP";
    case 2:
        return "SIGINT";
    case 6:
        return "SIGABRT";
    case 10:
        return "SIGUSR1";
    case 12:
        return "SIGUSR2";
    case 15:
        return "SIGTERM";
    case 24:
        return "SIGXCPU";
    default:
        return "a signal";
    }
}

void sp_journal_ending_text(const sp_journal *j, char *out, size_t size) {
    switch (j->header.ending) {
    case SP_ENDING_FINALIZED:
        snprintf(out, size, "sp_finalize ran (the journal should have been removed)");
        break;
    case SP_ENDING_SIGNAL:
        snprintf(out, size, "received signal %d (%s), then ended without sp_finalize",
                 j->header.signal_number, signal_name(j->header.signal_number));
        break;
    case SP_ENDING_EXIT:
        snprintf(out, size, "exit() without sp_finalize");
        break;
    case SP_ENDING_WRITE_FAILED:
        snprintf(out, size, "sp_finalize could not write the profile");
        break;
    default:
        snprintf(out, size,
                 "ended without sp_finalize and without a signal it could catch (SIGKILL, a "
                 "crash, or the node was lost)");
        break;
    }
}
