/* Built with -finstrument-functions: four threads call the same functions at
 * once (the hooks' per-thread caches and counts), two of them placed 8 KiB
 * apart so that they share an entry of a thread's direct-mapped cache and
 * evict each other on every call, recursion, and a tiny function called
 * often enough to be throttled while the other threads still call it. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4

__attribute__((noinline, aligned(8192))) int ping(int x) {
    return x + 1;
}

__attribute__((noinline, aligned(8192))) int pong(int x) {
    return x ^ 3;
}

static __attribute__((noinline)) int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) int tiny(int x) {
    return x ^ 1;
}

static void *worker(void *arg) {
    long total = 0;
    for (int i = 0; i < 300; i++)
        total += ping(i) + pong(i);
    total += fib(10);
    for (int i = 0; i < 5000; i++)
        total += tiny(i);
    *(long *)arg = total;
    return NULL;
}

int main(void) {
    pthread_t threads[THREADS];
    long totals[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&threads[i], NULL, worker, &totals[i]) != 0) return 1;
    long total = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        total += totals[i];
    }
    printf("threads total %ld\n", total);
    return 0;
}
