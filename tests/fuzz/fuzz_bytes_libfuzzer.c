/* libFuzzer entry point of the byte-level reader fuzzer. */
#include "fuzz_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_bytes_one(data, size);
    return 0;
}
