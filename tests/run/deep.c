/* Built with -finstrument-functions: a recursion far past the hooks' depth
 * limit (1,024 levels per thread, docs/run.md), twice, with a call at the
 * bottom, then calls at a shallow depth again: the calls within the limit
 * are recorded, the deeper ones are not, and the stack is in step after. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) int bottom(int x) {
    return x + 1;
}

static __attribute__((noinline)) int down(int n) {
    int r = n == 0 ? bottom(n) : down(n - 1) + 1;
    __asm__ volatile("" ::: "memory"); /* no tail call: every level stays open */
    return r;
}

static __attribute__((noinline)) int after(int x) {
    return x * 2;
}

int main(int argc, char **argv) {
    int levels = argc > 1 ? atoi(argv[1]) : 1500;
    long total = 0;
    for (int i = 0; i < 2; i++)
        total += down(levels);
    for (int i = 0; i < 3; i++)
        total += after(i);
    printf("deep total %ld\n", total);
    return 0;
}
