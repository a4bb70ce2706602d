/*
 * A run for oom_cap.sh: CALLS calls (regions "a" and "b", b inside a) to
 * PATH, then sp_finalize. Exit status 0 when finalize returned SP_OK, else
 * 10 + the status.
 *
 *   oom_child PATH CALLS [hold]
 *
 * With "hold" it sleeps after recording instead (a run to kill: its journal
 * then holds exactly CALLS calls, for the journal-mutation campaign).
 */
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "hold") == 0)) {
        fprintf(stderr, "usage: oom_child PATH CALLS [hold]\n");
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
    if (argc == 4) {
        fprintf(stdout, "recorded\n");
        fflush(stdout);
        for (;;)
            pause();
    }
    sp_status st = sp_finalize(NULL);
    return st == SP_OK ? 0 : 10 + (int)st;
}
