/*
 * scope_profiler_mpi.hpp: the C++ session of an MPI program
 * (libscope_profiler_mpi). Construct it after MPI_Init on every rank of
 * the communicator; its setup and finalize are collective.
 *
 *     sp::MpiSession session{MPI_COMM_WORLD};
 */
#ifndef SCOPE_PROFILER_MPI_HPP
#define SCOPE_PROFILER_MPI_HPP

#include <scope_profiler.hpp>
#include <scope_profiler_mpi.h>

namespace scope_profiler {

/** Session whose setup is sp_mpi_setup(options, comm) (collective). */
class MpiSession : public Session {
  public:
    explicit MpiSession(MPI_Comm comm) noexcept : Session(adopt_status{}, setup(nullptr, comm)) {}
    MpiSession(MPI_Comm comm, const sp_options &options) noexcept
        : Session(adopt_status{}, setup(&options, comm)) {}

    /** This process's rank in the profiling communicator. */
    static int rank() noexcept { return sp_mpi_rank(); }

  private:
    static sp_status setup(const sp_options *options, MPI_Comm comm) noexcept {
        sp_set_source_language("c++");
        return sp_mpi_setup(options, comm);
    }
};

} // namespace scope_profiler

#endif
