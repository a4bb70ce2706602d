/* What the MPI test programs share: failure counting and waiting that
 * survives oversubscription. */
#ifndef SP_TEST_MPI_SUPPORT_H
#define SP_TEST_MPI_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits until a deadline: sleeps most of the way, then spins. Ranks share 2
 * cores here (oversubscribed), and a pure spin would be stretched by
 * preemption, while a spin of the last 100 us rarely is. */
static inline void busy_wait(int64_t ns) {
    int64_t end = now_ns() + ns;
    if (ns > 200000) {
        struct timespec nap = {0, (long)(ns - 100000)};
        nanosleep(&nap, NULL);
    }
    while (now_ns() < end) {
    }
}

#endif
