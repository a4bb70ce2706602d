/* libFuzzer entry point of the LZF decompression harness. */
#include "fuzz_lzf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_lzf_one(data, size);
    return 0;
}
