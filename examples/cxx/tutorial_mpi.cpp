// The tutorial's workload in a C++ MPI program: every rank runs it, rank r
// assembling r + 1 times as long (an imbalance the profile shows), then
// agreeing on a residual (MPI_Allreduce, where the fast ranks wait). The MPI
// calls are timed as regions (opt.mpi_calls), so `scope-profiler inspect`
// shows the "Load balance" section (assemble: static, the last rank slowest; MPI_Allreduce: the others wait)
// and the "MPI calls" section (MPI_Allreduce under solve, its bytes).
//     mpirun -np 2 tutorial_cxx_mpi [file.h5]
//     scope-profiler inspect file.h5
#include <scope_profiler_mpi.hpp>

#include <chrono>
#include <cstdio>

namespace {
double spin(double seconds) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    double x = 0.0;
    while (std::chrono::steady_clock::now() < until)
        for (int i = 0; i < 1000; i++)
            x += 1e-9 * i;
    return x;
}

struct Solver {
    double assemble(int rank) {
        SP_CXX_FUNCTION();
        return spin(0.002 * (rank + 1));
    }
    double solve() {
        SP_CXX_FUNCTION();
        double local[4] = {spin(0.001), 1.0, 2.0, 3.0}, global[4];
        MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        return global[0];
    }
};
} // namespace

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "profiling_data.h5";
    opt.label = "tutorial c++ mpi";
    opt.mpi_calls = 1; // time MPI calls as regions (or SCOPE_PROFILER_MPI_CALLS=1)
    sp_status st;
    {
        sp::MpiSession session{MPI_COMM_WORLD, opt}; // collective
        Solver solver;
        double sink = sp::region("setup", [] { return spin(0.002); });
        for (int step = 0; step < 5; step++) {
            sp::Region timestep{"timestep"};
            sink += solver.assemble(rank) + solver.solve();
        }
        st = session.finalize(/*quiet=*/true); // collective
        if (sink < 0.0) st = SP_ERR_INVALID_ARGUMENT;
    }
    if (st != SP_OK) std::fprintf(stderr, "tutorial_cxx_mpi: %s\n", sp::status_string(st));
    MPI_Finalize();
    return st != SP_OK;
}
