/*
 * An OpenMP program that calls no omp_* function (run by check_fork_tree.py):
 * gcc then links libgomp only as needed, and the library's GOMP_parallel
 * satisfies the linker, so libgomp is not loaded at all; the interception
 * must load it (record/fork_point.c) instead of failing.
 */
#include <scope_profiler.h>

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "fork_tree_omp_plain.h5";
    if (sp_setup(&opt) != SP_OK) return 1;
    SP_REGION("loop") {
        for (int i = 0; i < 3; i++) {
#pragma omp parallel num_threads(2)
            {
                SP_REGION("work") {}
            }
        }
    }
    sp_finalize_options quiet = {.quiet = 1};
    return sp_finalize(&quiet) == SP_OK ? 0 : 1;
}
