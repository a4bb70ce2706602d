#ifndef SP_TEST_FUZZ_VLEN_H
#define SP_TEST_FUZZ_VLEN_H
#include <stddef.h>
#include <stdint.h>
/* One fuzz input through the global heap parser (fuzz_vlen.c). */
void sp_fuzz_vlen_one(const uint8_t *data, size_t size);
#endif
