/* A program built against the installed library: records, writes, reads back. */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argv[1];
    if (sp_setup(&opt) != SP_OK) return 1;
    SP_REGION("installed") {}
    sp_finalize_options quiet = {.quiet = 1};
    if (sp_finalize(&quiet) != SP_OK) return 1;
    sp_error err;
    sp_results *r = sp_read(argv[1], &err);
    /* "installed" and the session root */
    int ok = r && sp_results_num_regions(r) == 2 && sp_results_find(r, "installed") >= 0 &&
             sp_results_find(r, "scope_profiler.session") >= 0;
    sp_results_free(r);
    printf("installed library: %s\n", ok ? "ok" : "FAILED");
    return !ok;
}
