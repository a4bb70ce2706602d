/*
 * Reading what a run left in its journal (src/record/journal_layout.h):
 * the header, the region records and every chunk whose header checks. The
 * bytes are untrusted (a torn, truncated or foreign file): every length and
 * offset is checked, damage is counted and reported, never followed.
 */
#ifndef SP_RECOVER_JOURNAL_READ_H
#define SP_RECOVER_JOURNAL_READ_H

#include "common/visibility.h"
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "model/model.h"
#include "record/journal_layout.h"

typedef struct sp_journal_region {
    char *name; /* NULL: no (whole) record for this id */
    char *file;
    int32_t line;
} sp_journal_region;

typedef struct sp_journal_chunk_ref {
    uint32_t region;
    uint32_t thread;
    uint32_t sequence;
    uint32_t capacity;
    uint64_t offset; /* of the first slot */
} sp_journal_chunk_ref;

typedef struct sp_journal_thread {
    uint32_t index;
    int64_t native_id;
} sp_journal_thread;

/* One journal, parsed. The chunk references point into the caller's bytes. */
typedef struct sp_journal {
    sp_journal_header header; /* a copy, strings terminated */
    const unsigned char *bytes;
    size_t size;
    sp_journal_region *regions; /* indexed by region id, [0] unused */
    uint32_t num_regions;       /* ids 1..num_regions-1 */
    sp_journal_chunk_ref *chunks;
    size_t num_chunks;
    sp_journal_thread *threads;
    size_t num_threads;
    double ns_per_tick; /* the conversion recover uses */
    int64_t last_ns;    /* the latest time the journal shows */
    /* what was dropped */
    uint64_t torn_blocks;     /* block headers that did not check */
    uint64_t torn_chunks;     /* chunk headers that did not check */
    uint64_t damaged_bytes;   /* bytes skipped because of damage */
    uint64_t bad_calls;       /* slots with an end but no start, or ending before they start,
                                 and the completed calls of chunks that fail their check */
    uint64_t failed_checks;   /* whole chunks whose calls do not match their check (version 2) */
    uint64_t unnamed_calls;   /* calls of a region without a (whole) name record */
    uint64_t truncated_bytes; /* a block that runs past the end of the file */
} sp_journal;

/* Parses `size` bytes (kept by the caller while j is used). Fails only on a
 * file that is not a journal at all (wrong magic/version/header check):
 * SP_ERR_DAMAGED with err naming `what`. */
SP_INTERNAL_API sp_status sp_journal_parse(const unsigned char *bytes, size_t size,
                                           const char *what, sp_journal *j, sp_error *err);

SP_INTERNAL_API void sp_journal_free(sp_journal *j);

typedef struct sp_recover_report {
    uint64_t calls;      /* completed calls recovered */
    uint64_t open_calls; /* open when the run ended: left out */
    uint64_t dropped;    /* bad, unnamed or in torn chunks (see the journals' counters) */
} sp_recover_report;

/* Builds one profile from n journals (one rank each, ranks from their
 * headers, else in the order given), marked incomplete in /metadata. */
SP_INTERNAL_API sp_status sp_journal_build_model(sp_journal *const *journals, size_t n, sp_model *m,
                                                 sp_recover_report *report, sp_error *err);

/* "killed by signal 15 (SIGTERM)" and so on: how the run ended, for people. */
SP_INTERNAL_API void sp_journal_ending_text(const sp_journal *j, char *out, size_t size);

#endif
