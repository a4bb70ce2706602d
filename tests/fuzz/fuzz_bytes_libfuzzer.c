/* libFuzzer entry point of the byte-level reader fuzzer. */
#include <stdlib.h>

#include "fuzz_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (sp_fuzz_bytes_one(data, size) == 2) abort(); /* HDF5 objects left open */
    return 0;
}
