/*
 * A run for oom_cap.sh: CALLS calls (regions "a" and "b", b inside a) to
 * PATH, then sp_finalize. Exit status 0 when finalize returned SP_OK, else
 * 10 + the status.
 *
 *   oom_child PATH CALLS
 */
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: oom_child PATH CALLS\n");
        return 2;
    }
    long pairs = atol(argv[2]) / 2;
    sp_options options = SP_OPTIONS_INIT;
    options.file_path = argv[1];
    if (sp_setup(&options) != SP_OK) return 3;
    sp_region_t a = sp_region("a"), b = sp_region("b");
    for (long i = 0; i < pairs; i++) {
        sp_begin(a);
        sp_begin(b);
        sp_end(b);
        sp_end(a);
    }
    sp_status st = sp_finalize(NULL);
    return st == SP_OK ? 0 : 10 + (int)st;
}
