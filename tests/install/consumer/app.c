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
    int ok = r && sp_results_num_regions(r) == 1;
    sp_results_free(r);
    printf("installed library: %s\n", ok ? "ok" : "FAILED");
    return !ok;
}
