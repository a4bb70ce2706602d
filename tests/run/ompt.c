/* An unannotated OpenMP program for LLVM's libomp (clang -fopenmp): three
 * threads whose work grows with their number (20, 60, 100 ms), an explicit
 * barrier, twice; then a parallel loop in another function. Through OMPT,
 * scope-profiler run records each construct, each thread's implicit task and
 * the barrier waits. */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static __attribute__((noinline)) void sweep(void) {
#pragma omp parallel for num_threads(3) schedule(static)
    for (int i = 0; i < 3; i++)
        usleep(2000);
}

int main(void) {
    for (int round = 0; round < 2; round++) {
#pragma omp parallel num_threads(3)
        {
            usleep(20000 + 40000 * omp_get_thread_num());
#pragma omp barrier
        }
    }
    sweep();
    printf("ompt done on %d threads\n", 3);
    return 0;
}
