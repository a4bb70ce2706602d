/*
 * The least an out-of-line recorder can do per call, built as a shared
 * library like libscope_profiler (bench_fresh's `minimal` row): a TLS load,
 * the next slot, the TSC read, the store. No session check, no stack of
 * open calls, no chunk limit: a floor for any recorder called through the
 * PLT, not a usable one.
 */
#include <stdint.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#define READ_TICKS() __rdtsc()
#else
#define READ_TICKS() 0u
#endif

typedef struct minimal_thread {
    uint64_t *next;
} minimal_thread;

static __thread minimal_thread *current __attribute__((tls_model("initial-exec")));
static __thread minimal_thread state;

void bench_minimal_setup(uint64_t *slots);
void bench_minimal_begin(void);
void bench_minimal_end(void);

void bench_minimal_setup(uint64_t *slots) {
    state.next = slots;
    current = &state;
}

void bench_minimal_begin(void) {
    minimal_thread *t = current;
    uint64_t *slot = t->next;
    t->next = slot + 2;
    slot[0] = READ_TICKS();
}

void bench_minimal_end(void) {
    current->next[-1] = READ_TICKS();
}
