#ifndef SP_TEST_FUZZ_LZF_H
#define SP_TEST_FUZZ_LZF_H
#include <stddef.h>
#include <stdint.h>
/* One fuzz input through the LZF filter (fuzz_lzf.c). */
void sp_fuzz_lzf_one(const uint8_t *data, size_t size);
#endif
