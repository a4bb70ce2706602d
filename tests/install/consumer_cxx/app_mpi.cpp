// A C++ MPI program built against the installed package (run serially).
#include <scope_profiler_mpi.hpp>

int main() {
    return sp::MpiSession::rank() == 0 ? 0 : 1;
}
