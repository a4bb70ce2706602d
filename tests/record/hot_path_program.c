/*
 * A recording program for test_record_old_abi: built once against the
 * current header (the inline path) and once against tests/record/abi0 (the
 * previous ABI: every call out of line), linked with the same library.
 * Records a known pattern into argv[1]:
 *   outer x3 { inner x2 }, named x4 (literal), runtime x5 (runtime string),
 *   scoped x2 (SP_REGION), deep: one recursion 100 levels deep (the stack
 *   grows), many x70000 (several chunks), a mismatched end (reported).
 */
#include <scope_profiler.h>
#include <stdio.h>
#include <string.h>

static void deep(sp_region_t h, int levels) {
    sp_begin(h);
    if (levels > 1) deep(h, levels - 1);
    sp_end(h);
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argv[1];
    opt.compression = SP_COMPRESSION_NONE;
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    for (int i = 0; i < 3; i++) {
        sp_begin(outer);
        for (int j = 0; j < 2; j++) {
            sp_begin(inner);
            sp_end(inner);
        }
        sp_end(outer);
    }
    for (int i = 0; i < 4; i++) {
        sp_begin_name("named");
        sp_end_name("named");
    }
    char runtime[16];
    strcpy(runtime, "runtime");
    for (int i = 0; i < 5; i++) {
        sp_begin_name(runtime);
        sp_end_name(runtime);
    }
    for (int i = 0; i < 2; i++) {
        SP_REGION("scoped") {
            __asm__ volatile("" ::: "memory");
        }
    }
    deep(sp_region("deep"), 100);
    sp_region_t many = sp_region("many");
    for (int i = 0; i < 70000; i++) {
        sp_begin(many);
        sp_end(many);
    }
    sp_end(inner); /* not open: reported once, ignored */
    sp_finalize_options quiet = {.quiet = 1};
    return sp_finalize(&quiet) == SP_OK ? 0 : 1;
}
