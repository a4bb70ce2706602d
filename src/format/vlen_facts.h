/*
 * One stored variable-length string checked against the file it names
 * (vlen_read.c), for the string columns (sp_rd_check_vlen_strings) and for
 * every string libhdf5 converts while the reader's guard is armed
 * (vlen_guard.h).
 */
#ifndef SP_FORMAT_VLEN_FACTS_H
#define SP_FORMAT_VLEN_FACTS_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "format/vlen_check.h"

/* No string of a profile (name, metadata value, source text) is longer:
 * a longer stored length is damage, refused before anything is allocated. */
#define SP_MAX_STRING_BYTES (64u << 20)

/* What the checks need of the file: its descriptor, size and field sizes. */
typedef struct sp_vlen_file {
    int fd;
    uint64_t eof;
    size_t address_size, length_size;
} sp_vlen_file;

/* The global heap collections parsed so far (each once). */
typedef struct sp_vlen_heaps {
    sp_gheap *list;
    size_t count, cap;
    size_t last; /* the one found last: strings stored in order share collections */
} sp_vlen_heaps;

/* 1 when file was opened with the guarded driver and can be checked, else 0. */
int sp_vlen_file_of(hid_t file, sp_vlen_file *f);

/* 0 when r names a string that exists with exactly its length (or is NULL);
 * -1 damage (why: "claims 12 bytes but ..."), -2 out of memory. */
int sp_vlen_ref_check(const sp_vlen_file *f, sp_vlen_heaps *h, sp_vlen_ref r, char *why,
                      size_t why_size);
void sp_vlen_heaps_free(sp_vlen_heaps *h);

#endif
