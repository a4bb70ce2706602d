/* Built with -DSP_DISABLE and without the library: every instrumentation
 * macro must compile to nothing, and the program must still run its code. */
#include <scope_profiler.h>
#include <stdio.h>

static int calls;

static void profiled(void) {
    SP_PROFILE("profiled");
    calls++;
}

static void function_named(void) {
    SP_PROFILE_FUNCTION();
    calls++;
}

int main(void) {
    sp_options opt = SP_OPTIONS_INIT;
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_region_t h = sp_region("manual");
    sp_begin(h);
    sp_end(h);
    sp_begin_name("by name");
    sp_end_name("by name");
    SP_REGION("block") {
        calls++;
    }
    for (int i = 0; i < 3; i++)
        SP_REGION("loop") calls++;
    {
        SP_SCOPE("scope");
        calls++;
    }
    profiled();
    function_named();
    if (sp_finalize(NULL) != SP_OK) return 1;
    if (h != SP_REGION_NONE || calls != 7) {
        fprintf(stderr, "SP_DISABLE: expected 7 calls and no handle, got %d\n", calls);
        return 1;
    }
    return 0;
}
