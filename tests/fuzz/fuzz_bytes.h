/*
 * Byte-level fuzzing of the reader: any bytes (libFuzzer mutates real
 * profiles, seeded from tests/fixtures) are written to a temporary file and
 * read with sp_read(); the read must end in results or an error status.
 */
#ifndef SP_FUZZ_BYTES_H
#define SP_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Reads `data` as a profile; returns 0 on results, 1 on an error status,
 * 2 when HDF5 objects were left open after the read (a leak on an error path:
 * H5Fget_obj_count(H5F_OBJ_ALL) must be 0 once the read is over). */
int sp_fuzz_bytes_one(const uint8_t *data, size_t size);

#endif
