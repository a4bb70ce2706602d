/* Records a tiny run with user metadata of every type and region tags
 * (tests/models/test_cli_models.py reads it back). Usage: record_meta OUT.h5 */
#include <scope_profiler.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    sp_options o = SP_OPTIONS_INIT;
    o.file_path = argv[1];
    if (sp_setup(&o)) return 1;
    int bad = 0;
    bad |= sp_set_metadata("problem_size", 128) != SP_OK;
    bad |= sp_set_metadata("mesh", "box-3d") != SP_OK;
    bad |= sp_set_metadata("dt", 0.25) != SP_OK;
    bad |= sp_set_metadata("replaced", 1) != SP_OK || sp_set_metadata("replaced", "two") != SP_OK;
    /* refused: a built-in field, a bad name, a value that is not finite */
    bad |= sp_set_metadata("mpi_size", 3) != SP_ERR_INVALID_ARGUMENT;
    bad |= sp_set_metadata("a b", 1) != SP_ERR_INVALID_ARGUMENT;
    bad |= sp_set_metadata_double("x", 1.0 / 0.0) != SP_ERR_INVALID_ARGUMENT;
    sp_region_t solve = sp_region("solve");
    bad |= sp_region_add_tag(solve, "solver") || sp_region_add_tag(solve, "linear") ||
           sp_region_add_tag(solve, "solver");
    bad |= sp_region_add_tag(solve, "") != SP_ERR_INVALID_ARGUMENT;
    bad |= sp_region_add_tag(9999, "x") != SP_ERR_INVALID_ARGUMENT;
    sp_begin(solve);
    sp_end(solve);
    SP_REGION("io") {}
    sp_finalize_options f = SP_FINALIZE_OPTIONS_INIT;
    f.quiet = 1;
    if (sp_finalize(&f)) return 1;
    return bad ? 3 : 0;
}
