// bench_bindings: the cost of one begin+end pair from C++ (RAII Region,
// SP_CXX_SCOPE) and from Fortran, against the C handle pair and the C
// function forms (sp_begin_fn/sp_end_fn: the inline path plus one call),
// in interleaved rounds of the same run. Prints medians and ratios.
//     bench_bindings [pairs_per_round]
#include <scope_profiler.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "bench_support.h"
// bench_bindings_fortran.f90: n pairs of call sp_begin(h); call sp_end(h)
void bench_fortran_pairs(int region, long n);
}

namespace {

double c_pairs(sp_region_t h, long n) {
    double t0 = bench_now_s();
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
    return bench_now_s() - t0;
}

double c_function_pairs(sp_region_t h, long n) {
    double t0 = bench_now_s();
    for (long i = 0; i < n; i++) {
        sp_begin_fn(h);
        sp_end_fn(h, __FILE__, __LINE__);
    }
    return bench_now_s() - t0;
}

double raii_pairs(sp_region_t h, long n) {
    double t0 = bench_now_s();
    for (long i = 0; i < n; i++) {
        sp::Region r{h};
    }
    return bench_now_s() - t0;
}

double scope_macro_pairs(long n) {
    double t0 = bench_now_s();
    for (long i = 0; i < n; i++) {
        SP_CXX_SCOPE("bench");
    }
    return bench_now_s() - t0;
}

double fortran_pairs(sp_region_t h, long n) {
    double t0 = bench_now_s();
    bench_fortran_pairs(static_cast<int>(h), n);
    return bench_now_s() - t0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 200000;
    const int rounds = 15;
    const char *tmp = std::getenv("TMPDIR");
    std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/bench_bindings_" +
                       std::to_string(static_cast<long>(getpid())) + ".h5";
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path.c_str(); // removed at the end
    opt.compression = SP_COMPRESSION_NONE;
    sp::Session session{opt};
    if (!session.ok()) return 1;
    sp_region_t h = sp::handle("bench");
    // room for every call, touched in advance: no allocation or page fault while timing
    if (sp_reserve(h, static_cast<uint64_t>(n) * rounds * 5 + 16) != SP_OK) return 1;
    std::vector<double> c, fn, raii, macro, fortran, r_raii, r_macro, r_fortran, r_fn;
    for (int round = 0; round < rounds; round++) {
        double tc = c_pairs(h, n), tfn = c_function_pairs(h, n), tr = raii_pairs(h, n),
               tm = scope_macro_pairs(n), tf = fortran_pairs(h, n);
        c.push_back(1e9 * tc / n);
        fn.push_back(1e9 * tfn / n);
        raii.push_back(1e9 * tr / n);
        macro.push_back(1e9 * tm / n);
        fortran.push_back(1e9 * tf / n);
        r_fn.push_back(tfn / tc);
        r_raii.push_back(tr / tc);
        r_macro.push_back(tm / tc);
        r_fortran.push_back(tf / tc);
    }
    double mc = median(c), mfn = median(fn), mf = median(fortran);
    std::printf("== begin+end pair cost: medians of %d interleaved rounds of %ld pairs\n", rounds, n);
    std::printf("  C handle pair (inline)           %6.2f ns\n", mc);
    std::printf("  C function forms (sp_*_fn)       %6.2f ns  = %.3fx C  (one extra call: %+.2f ns)\n",
                mfn, median(r_fn), mfn - mc);
    std::printf("  C++ sp::Region{handle}           %6.2f ns  = %.3fx C  (target: within 1.1x)\n",
                median(raii), median(r_raii));
    std::printf("  C++ SP_CXX_SCOPE(\"name\")         %6.2f ns  = %.3fx C\n", median(macro),
                median(r_macro));
    std::printf("  Fortran call sp_begin/sp_end     %6.2f ns  = %.3fx C  (%+.2f ns over C; "
                "target: within one extra call, %+.2f ns)\n",
                mf, median(r_fortran), mf - mc, mfn - mc);
    sp_finalize_options quiet = SP_FINALIZE_OPTIONS_INIT;
    quiet.quiet = 1;
    sp_status st = session.finalize(quiet);
    std::remove(path.c_str());
    return st != SP_OK;
}
