/* libFuzzer entry point of the chunk decoder harness. */
#include "fuzz_chunk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_chunk_one(data, size);
    return 0;
}
