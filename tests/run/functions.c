/* Built with -finstrument-functions (and -finstrument-functions-exclude-
 * function-list=skipped): a static function, recursion, a function excluded
 * by attribute and one by the compiler flag, a tiny function called often
 * enough to be throttled, and a function of a shared library (fnlib.c). */
#include <stdio.h>
#include <stdlib.h>

int lib_scale(int x); /* fnlib.c */

static __attribute__((noinline)) int square(int x) {
    return x * x;
}

static __attribute__((noinline)) int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline, no_instrument_function)) int hidden(int x) {
    return x + 1;
}

__attribute__((noinline)) int skipped(int x) {
    return x - 1;
}

__attribute__((noinline)) int tiny(int x) {
    return x ^ 1;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    long total = 0;
    for (int i = 0; i < 3; i++)
        total += square(i) + hidden(i) + skipped(i) + lib_scale(i);
    total += fib(10);
    for (int i = 0; i < n; i++)
        total += tiny(i);
    printf("functions total %ld\n", total);
    return 0;
}
