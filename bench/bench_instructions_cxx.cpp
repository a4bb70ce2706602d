// bench_instructions' C++ figures: sp::Region from a literal and from a handle.
#include <scope_profiler.hpp>

extern "C" {
void measure_cxx_literal(sp_region_t h, long n);
void measure_cxx_handle(sp_region_t h, long n);
}

__attribute__((noinline)) void measure_cxx_literal(sp_region_t h, long n) {
    (void)h;
    for (long i = 0; i < n; i++) {
        sp::Region r{"bench"};
    }
}

__attribute__((noinline)) void measure_cxx_handle(sp_region_t h, long n) {
    for (long i = 0; i < n; i++) {
        sp::Region r{h};
    }
}
