/* libFuzzer entry point of the global heap parser harness. */
#include "fuzz_vlen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_vlen_one(data, size);
    return 0;
}
