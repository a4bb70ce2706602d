/* libFuzzer entry points (built with SP_BUILD_FUZZ=ON and clang). */
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    sp_fuzz_reader_init();
    atexit(sp_fuzz_reader_cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_reader_one(data, size);
    return 0;
}
