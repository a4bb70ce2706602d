/* An unannotated program that a signal ends: five calls of leaf(), then
 * SIGTERM (the default action) from inside work(). Built with
 * -finstrument-functions. */
#include <signal.h>
#include <stdio.h>

__attribute__((noinline)) int leaf(int i) { return i * 3; }

__attribute__((noinline)) int work(void) {
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += leaf(i);
    printf("signal: %d, terminating\n", s);
    fflush(stdout);
    raise(SIGTERM);
    return s;
}

int main(void) { return work() == 30 ? 0 : 1; }
