/* An MPI program built against the installed MPI library (serial run: no MPI_Init). */
#include <scope_profiler_mpi.h>

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return sp_mpi_rank() == 0 ? 0 : 1;
}
