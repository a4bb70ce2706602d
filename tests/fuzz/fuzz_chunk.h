#ifndef SP_TEST_FUZZ_CHUNK_H
#define SP_TEST_FUZZ_CHUNK_H
#include <stddef.h>
#include <stdint.h>
/* One fuzz input through the reader's chunk decoder (fuzz_chunk.c). */
void sp_fuzz_chunk_one(const uint8_t *data, size_t size);
#endif
