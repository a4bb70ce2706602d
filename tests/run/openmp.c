/* OpenMP with -finstrument-functions: the outlined parallel body runs on
 * every thread, work() eight times in all. */
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) double work(int i) {
    double s = 0;
    for (int k = 0; k < 10000 * (i + 1); k++)
        s += k * 0.5;
    return s;
}

int main(void) {
    double total = 0;
#pragma omp parallel for reduction(+ : total) num_threads(2) schedule(static)
    for (int i = 0; i < 8; i++)
        total += work(i);
    printf("openmp total %.0f\n", total);
    return 0;
}
