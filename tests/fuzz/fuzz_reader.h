/*
 * Structure-aware fuzzing of the profile reader. The input does not hold
 * file bytes: it steers a builder that creates an HDF5 file with the HDF5
 * API (which datasets and attributes exist, their types, shapes and
 * values), mostly well-formed with a few targeted defects, so the reader's
 * checks are exercised rather than libhdf5's own parser.
 */
#ifndef SP_FUZZ_READER_H
#define SP_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>

/* Once per process: silences HDF5's error printing, picks the scratch file. */
void sp_fuzz_reader_init(void);

/* Builds the file the input describes, reads it, checks the outcome; aborts
 * on any violated invariant. Returns 1 when the read succeeded. */
int sp_fuzz_reader_one(const uint8_t *data, size_t size);

/* Removes the scratch file. */
void sp_fuzz_reader_cleanup(void);

#endif
