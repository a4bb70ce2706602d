/* The journal reader's fuzz harness (recover reads untrusted bytes). */
#ifndef SP_FUZZ_JOURNAL_H
#define SP_FUZZ_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

/* Parses the bytes as a journal and builds the profile model; never crashes. */
void sp_fuzz_journal_one(const uint8_t *data, size_t size);

/* A small valid journal with known calls (see fuzz_journal.c); malloc'ed. */
unsigned char *sp_fuzz_journal_seed(size_t *size);

#endif
