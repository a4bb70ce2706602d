// The tutorial's workload in C++: a setup phase, then five time steps that
// assemble and solve. Regions come from RAII types and SP_CXX_FUNCTION(),
// which names them "tutorial::Solver::assemble" and so on.
//     tutorial_cxx [file.h5]
#include <scope_profiler.hpp>

#include <chrono>
#include <cstdio>

namespace tutorial {

// Keeps the CPU busy for about `seconds`.
inline double spin(double seconds) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    double x = 0.0;
    while (std::chrono::steady_clock::now() < until)
        for (int i = 0; i < 1000; i++)
            x += 1e-9 * i;
    return x;
}

template <typename T> T residual(T x) {
    SP_CXX_FUNCTION(); // "tutorial::residual<double>"
    return x * T(0.5);
}

class Solver {
  public:
    double assemble(int scale) {
        SP_CXX_FUNCTION();
        return spin(0.002 * scale);
    }
    double solve() {
        SP_CXX_FUNCTION();
        return residual(spin(0.001));
    }
};

} // namespace tutorial

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "profiling_data.h5";
    opt.label = "tutorial c++";
    sp::Session session{opt};
    if (!session.ok()) {
        std::fprintf(stderr, "tutorial_cxx: %s\n", sp::status_string(session.status()));
        return 1;
    }
    tutorial::Solver solver;
    double sink = sp::region("setup", [] { return tutorial::spin(0.005); });
    for (int step = 0; step < 5; step++) {
        sp::Region timestep{"timestep"};
        sink += solver.assemble(1 + step % 3);
        sink += solver.solve();
    }
    sp_status st = session.finalize(/*quiet=*/argc > 2);
    if (st != SP_OK) std::fprintf(stderr, "tutorial_cxx: %s\n", sp::status_string(st));
    return st != SP_OK || sink < 0.0;
}
