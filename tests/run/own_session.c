/* An annotated program: its own session (file argv[1], region "mine") must
 * win over scope-profiler run's. */
#include <scope_profiler.h>
#include <stdio.h>

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "own.h5";
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_region_t r = sp_region("mine");
    sp_begin(r);
    sp_end(r);
    return sp_finalize(NULL) == SP_OK ? 0 : 1;
}
