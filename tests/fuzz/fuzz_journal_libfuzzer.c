/* libFuzzer entry point of the journal reader's harness. */
#include "fuzz_journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sp_fuzz_journal_one(data, size);
    return 0;
}
