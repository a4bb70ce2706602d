/*
 * The journal's on-disk layout (docs/format.md, "The recording journal"):
 * written by the recorder through a shared mapping, read by `recover`.
 * All integers little-endian (the host's order: a journal is read on the
 * machine type that wrote it). Offsets are from the start of the file.
 *
 *   [0, 4096)   header
 *   then blocks, each starting on a 4 KiB boundary with a block header:
 *     chunk blocks: chunks (chunk header + 16-byte call slots), packed
 *     name blocks:  region records (id, line, name, file), packed
 *
 * Every header carries a check value over its fields, written last, so that
 * a header the kernel or a crash tore is recognised and skipped.
 */
#ifndef SP_RECORD_JOURNAL_LAYOUT_H
#define SP_RECORD_JOURNAL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "scope_profiler.h"

#define SP_JOURNAL_MAGIC "SPJRNL01"
/* 2: chunks carry a check of their calls (issue 22); 3: a cheaper check
 * (issue 29: the public header's inline path computes it per call) */
#define SP_JOURNAL_VERSION     3u
#define SP_JOURNAL_HEADER_SIZE 4096u
#define SP_JOURNAL_ALIGN       4096u

#define SP_BLOCK_MAGIC  0x4b4c4253u /* "SBLK" */
#define SP_CHUNK_MAGIC  0x4b4e4843u /* "CHNK" */
#define SP_NAME_MAGIC   0x454d414eu /* "NAME" */
#define SP_BLOCK_CHUNKS 1u
#define SP_BLOCK_NAMES  2u
#define SP_BLOCK_FREE   3u /* given back (a failed reservation): skip */

/* How the run ended, as far as the journal knows. */
typedef enum sp_journal_ending {
    SP_ENDING_RUNNING = 0,   /* no ending seen: SIGKILL, a crash, the node lost */
    SP_ENDING_FINALIZED = 1, /* sp_finalize wrote the profile */
    SP_ENDING_SIGNAL = 2,    /* a signal arrived (signal_number); the process then ended */
    SP_ENDING_EXIT = 3,      /* exit() without sp_finalize, profile not written */
    SP_ENDING_WRITE_FAILED = 4
} sp_journal_ending;

typedef struct sp_journal_header {
    char magic[8];
    uint32_t version;
    uint32_t header_size;
    int64_t pid;
    int64_t rank;     /* -1: not an MPI run, or not known yet */
    int64_t mpi_size; /* 0: not known */
    int64_t start_ns; /* sp_setup, CLOCK_MONOTONIC */
    uint32_t clock_is_tsc;
    uint32_t reserved0;
    uint64_t first_ticks; /* the clock's first calibration point */
    int64_t first_ns;
    char output_path[1024];
    char label[256];
    char host[64];
    uint64_t check; /* sp_journal_check over the bytes before it */
    /* written while the run goes on (outside the check) */
    uint64_t latest_sequence; /* odd while the latest point is written */
    uint64_t latest_ticks;    /* the latest calibration point */
    int64_t latest_ns;
    uint32_t ending; /* sp_journal_ending */
    int32_t signal_number;
    int64_t ending_ns;
} sp_journal_header;

typedef struct sp_journal_block {
    uint32_t magic;
    uint32_t kind;
    uint32_t thread; /* chunk blocks: the thread's index in this session */
    uint32_t reserved0;
    uint64_t size;     /* bytes, header included, a multiple of SP_JOURNAL_ALIGN */
    uint64_t offset;   /* where the block starts (a torn copy elsewhere is refused) */
    int64_t native_id; /* chunk blocks: the thread's kernel id */
    uint64_t reserved1[2];
    uint64_t check;
} sp_journal_block;

/* One region's calls on one thread: `capacity` slots of {start, end} ticks
 * follow. A slot with end != 0 is a completed call; start != 0 with end == 0
 * is a call still open (or dropped by a mismatch); all zero is unused. */
typedef struct sp_journal_chunk {
    uint32_t magic;
    uint32_t region;
    uint32_t thread;
    uint32_t capacity;
    uint32_t sequence; /* the chunk's place in its (thread, region) row, from 0 */
    uint32_t reserved0;
    uint64_t check; /* over the fields before it */
    /* version 2 and 3, written with every completed call (the public header):
     * the XOR of sp_journal_slot_mix() over the completed slots, and 1 +
     * the index of the slot whose end was written last (stored before that
     * end, so that a run killed between the end and the check is told from
     * damage: the one slot the check lacks must be that one) */
    uint64_t calls_check;
    uint32_t pending;
    uint32_t reserved1;
} sp_journal_chunk;

/* Bytes of a chunk header in a journal of `version` (1 had no calls check). */
#define SP_JOURNAL_CHUNK_BYTES(version) ((version) >= 2 ? sizeof(sp_journal_chunk) : 32u)

/* A region's name and source location; name_length + file_length bytes follow
 * (no terminators), then padding to 8 bytes. */
typedef struct sp_journal_name {
    uint32_t magic;
    uint32_t region;
    int32_t line;
    uint32_t name_length;
    uint32_t file_length;
    uint32_t reserved0;
    uint64_t check; /* over the fields before it and the text */
} sp_journal_name;

/* FNV-1a over bytes, folded with a seed: the check value of every header. */
static inline uint64_t sp_journal_check(const void *bytes, uint64_t length, uint64_t seed) {
    const unsigned char *p = (const unsigned char *)bytes;
    uint64_t h = 1469598103934665603ull ^ seed;
    for (uint64_t i = 0; i < length; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h | 1; /* never 0: a zeroed header never checks */
}

/* One completed call's share of its chunk's calls_check in a journal of this
 * version (3): the public header's mix of 1 + the slot's index, start and end
 * (what the inline path computes). */
static inline uint64_t sp_journal_slot_mix(uint64_t index, uint64_t start, uint64_t end) {
    return sp_internal_hot_mix_(index + 1, start, end);
}

/* The same in a version 2 journal: multiply-xorshift mixing of the slot's
 * index, start and end (read by recover only). */
static inline uint64_t sp_journal_slot_mix_v2(uint64_t index, uint64_t start, uint64_t end) {
    uint64_t h = (start ^ (index * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
    h ^= end + (h >> 29);
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

#endif
