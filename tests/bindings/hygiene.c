/* Compiled (not run) by check_headers.sh as C99/C11/C17 and C++11/17/20, with
 * and without -DSP_DISABLE: every public form of the recording API once. */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#ifdef __cplusplus
#include <scope_profiler.hpp>
#endif

static void scoped(void) {
    SP_SCOPE("scope");
    SP_PROFILE_FUNCTION();
}

static void profiled(void) {
    SP_PROFILE("profile");
}

#ifdef __cplusplus
namespace hygiene {
struct Solver {
    int solve(int x) {
        SP_CXX_FUNCTION();
        SP_CXX_SCOPE("inner");
        sp::Region r{"by name"};
        sp::Region h{sp::handle("by handle")};
        return sp::region("callable", [x] { return x + 1; });
    }
};
} // namespace hygiene
#endif

int main(void) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.label = "hygiene";
    sp_setup(&opt);
    sp_set_thread_name("main");
    sp_set_source_language("c");
    SP_REGION("region") {
        scoped();
    }
    profiled();
    sp_region_t h = sp_region("handle");
    sp_begin(h);
    sp_end(h);
    sp_begin_name("name");
    sp_end_name("name");
    sp_begin_fn(h);
    sp_end_fn(h, __FILE__, __LINE__);
    sp_begin_name_fn("fn", __FILE__, __LINE__);
    sp_end_name_fn("fn", __FILE__, __LINE__);
#ifdef __cplusplus
    hygiene::Solver s;
    s.solve(1);
#endif
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = 1;
    sp_finalize(&fo);
    sp_finalize(NULL);
    return 0;
}
