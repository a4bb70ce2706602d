#include "preload/functions.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload/core_link.h"
#include "preload/hook_clock.h"
#include "preload/symbolize.h"
#include "scope_profiler.h"

#define CAPACITY     (1u << 16) /* distinct functions; more are not recorded (docs/run.md) */
#define MAX_DEPTH    1024       /* deeper calls are not recorded */
#define SAMPLE_EVERY 16         /* calls between two timed samples, for the throttling mean */
#define CHECK_EVERY  1024       /* calls between two throttling checks, past the threshold */
#define CACHE_SIZE   512        /* a thread's direct-mapped cache: function address -> counts */

typedef struct function {
    uintptr_t addr;     /* 0 = free; published last (release) */
    sp_region_t region; /* SP_REGION_NONE: excluded */
    int throttled;
} function;

/* One thread's record of one function, all a hook touches per call (one cache line). */
typedef struct counts {
    int throttled; /* this thread's copy of table[slot].throttled (set by throttle()) */
    sp_region_t region;
    uint32_t countdown; /* recorded calls until the next sampled one; 0: not set up yet */
    uint32_t slot;
    uint64_t calls;      /* recorded calls, up to the last sampled one */
    uint64_t next_check; /* the value of calls at the next throttling check; 0: never */
    uint64_t sampled, sampled_ticks;
    uint64_t counted, counted_ticks; /* throttled calls: finalize reads them meanwhile */
} counts;

#define CHUNK 256
typedef struct thread_counts {
    counts *chunks[CAPACITY / CHUNK];
    struct thread_counts *next;
} thread_counts;

/* A frame of the thread's stack, for the exit hook: the counts' address with
 * the kind in its low bits; a recorded call (the usual one) is the bare address. */
enum { RECORDED = 0, TIMED = 1, COUNTED = 2, NOTHING = 3, KIND_BITS = 3 };

/* A thread's view: one TLS block, so that the hooks find it with one offset.
 * The cache is two arrays, so that a lookup is two loads off that offset. */
typedef struct hook_thread {
    uintptr_t depth; /* a full register: no widening before indexing */
    thread_counts *mine;
    uintptr_t cache_addr[CACHE_SIZE]; /* function addresses (0: empty) */
    counts *cache_counts[CACHE_SIZE];
    uintptr_t stack[MAX_DEPTH];
    uint64_t starts[MAX_DEPTH]; /* ticks at the start of a TIMED or COUNTED call */
} hook_thread;

#define CACHE_INDEX(addr) (((addr) >> 4) & (CACHE_SIZE - 1))

/* What the cache holds for an excluded function: its "throttled" flag is always
 * set, so that the fast path leaves it to the slow one, which records nothing. */
static counts excluded = {.throttled = 1, .region = SP_REGION_NONE};

static function table[CAPACITY];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int enabled;
static uint64_t throttle_calls = 100000, throttle_ns = 1000;
static uint64_t
    first_check; /* the first multiple of CHECK_EVERY from throttle_calls on; 0: never */
static char **includes, **excludes;
static size_t num_includes, num_excludes;
static thread_counts *all_threads; /* under lock; kept to the end of the process */
static uint64_t overflowed;

/* initial-exec: the library is loaded at start (LD_PRELOAD), so no __tls_get_addr per call */
static __thread __attribute__((tls_model("initial-exec"))) hook_thread self;

static uint32_t hash(uintptr_t a) {
    return (uint32_t)((a >> 4) * 0x9E3779B97F4A7C15ull >> 40) & (CAPACITY - 1);
}

static int matches(char **globs, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (fnmatch(globs[i], name, 0) == 0) return 1;
    return 0;
}

/* Under lock: a new function's entry, named now (once per function, the first
 * call pays for the symbol lookup) so that a journal that a signal or a kill
 * leaves holds the names too: the journal takes a region's name at its first
 * call, and no name can be looked up once the process is gone. */
static sp_region_t new_region(uintptr_t addr) {
    char name[1024], placeholder[64];
    sp_symbolize(addr, name, sizeof name);
    if (num_includes && !matches(includes, num_includes, name)) return SP_REGION_NONE;
    if (matches(excludes, num_excludes, name)) return SP_REGION_NONE;
    const sp_companion *core = sp_preload_core();
    snprintf(placeholder, sizeof placeholder, "<function 0x%lx>", (unsigned long)addr);
    sp_region_t region = sp_region_at(placeholder, NULL, 0);
    if (core && region != SP_REGION_NONE) sp_preload_rename_region(core, region, name, addr);
    return region;
}

static uint32_t slot_of(uintptr_t addr) {
    uint32_t i = hash(addr);
    for (uint32_t n = 0; n < CAPACITY; n++, i = (i + 1) & (CAPACITY - 1)) {
        uintptr_t a = __atomic_load_n(&table[i].addr, __ATOMIC_ACQUIRE);
        if (a == addr) return i;
        if (a) continue;
        pthread_mutex_lock(&lock);
        a = table[i].addr; /* another thread may have taken the slot */
        if (!a) {
            table[i].region = new_region(addr);
            __atomic_store_n(&table[i].addr, addr, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
        if (!a || a == addr) return i;
    }
    __atomic_fetch_add(&overflowed, 1, __ATOMIC_RELAXED);
    return CAPACITY;
}

/* This thread's counts of a function, set up under the lock (once per thread
 * and function), so that throttle() finds every copy of the flag. */
static counts *counts_of(uint32_t slot) {
    hook_thread *t = &self;
    counts *c = NULL;
    pthread_mutex_lock(&lock);
    if (!t->mine && (t->mine = calloc(1, sizeof *t->mine)) != NULL) {
        t->mine->next = all_threads;
        all_threads = t->mine;
    }
    counts **chunk = t->mine ? &t->mine->chunks[slot / CHUNK] : NULL;
    if (chunk && !*chunk) /* finalize reads the chunks without the lock */
        __atomic_store_n(chunk, calloc(CHUNK, sizeof **chunk), __ATOMIC_RELEASE);
    if (chunk && *chunk) {
        c = &(*chunk)[slot % CHUNK];
        if (!c->countdown) {
            c->region = table[slot].region;
            c->slot = slot;
            c->next_check = first_check;
            c->countdown = SAMPLE_EVERY;
            c->throttled = __atomic_load_n(&table[slot].throttled, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&lock);
    return c;
}

/* A function this thread has not called since its cache entry went to another:
 * its counts (cached), &excluded (cached too), or NULL: not recorded. */
static __attribute__((noinline)) counts *cache_miss(hook_thread *t, uintptr_t addr) {
    uint32_t slot = slot_of(addr);
    if (slot == CAPACITY) return NULL;
    counts *c = &excluded;
    if (table[slot].region != SP_REGION_NONE && (c = counts_of(slot)) == NULL) return NULL;
    t->cache_addr[CACHE_INDEX(addr)] = addr;
    t->cache_counts[CACHE_INDEX(addr)] = c;
    return c;
}

/* From now on the function's calls are counted, not recorded, on every thread. */
static void throttle(uint32_t slot) {
    pthread_mutex_lock(&lock);
    __atomic_store_n(&table[slot].throttled, 1, __ATOMIC_RELAXED);
    for (thread_counts *t = all_threads; t; t = t->next) {
        counts *chunk = t->chunks[slot / CHUNK];
        if (chunk) __atomic_store_n(&chunk[slot % CHUNK].throttled, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&lock);
}

/* Every CHECK_EVERY calls past throttle_calls: is the sampled mean under throttle_ns? */
static __attribute__((noinline)) void check_throttle(counts *c) {
    c->next_check += CHECK_EVERY;
    if (c->sampled && (uint64_t)sp_hook_clock_ns(c->sampled_ticks) / c->sampled < throttle_ns)
        throttle(c->slot);
}

#define SP_HOOK     __attribute__((no_instrument_function, visibility("default")))
#define SLOW        __attribute__((noinline, no_instrument_function))
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
void __cyg_profile_func_enter(void *fn, void *site) SP_HOOK;
void __cyg_profile_func_exit(void *fn, void *site) SP_HOOK;

/* Every SAMPLE_EVERY-th recorded call (its countdown just reached 0): timed, and
 * the call that reaches a check decides whether the function is throttled from
 * its next call on. */
static SLOW void enter_sampled(hook_thread *t, counts *c, uintptr_t d) {
    c->countdown = SAMPLE_EVERY;
    c->calls += SAMPLE_EVERY;
    if (c->calls == c->next_check) check_throttle(c);
    t->stack[d] = (uintptr_t)c | TIMED;
    t->starts[d] = sp_hook_ticks(); /* the sample holds the recording's cost, as a call does */
    t->depth = d + 1;
    sp_begin(c->region);
}

/* Everything the fast path leaves: hooks off, a cache miss, a deep stack, an
 * excluded or a throttled function. Outside a session a call gets a frame
 * that does nothing, so that the stack stays in step with the exits. */
static SLOW void enter_slow(uintptr_t addr) {
    if (!__atomic_load_n(&enabled, __ATOMIC_RELAXED)) return;
    hook_thread *t = &self;
    uintptr_t d = t->depth;
    if (d >= MAX_DEPTH) {
        t->depth = d + 1;
        return;
    }
    counts *c = NULL;
    if (__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED)) {
        uintptr_t i = CACHE_INDEX(addr);
        c = t->cache_addr[i] == addr ? t->cache_counts[i] : cache_miss(t, addr);
    }
    if (!c || c == &excluded) {
        t->stack[d] = NOTHING;
        t->depth = d + 1;
        return;
    }
    if (__atomic_load_n(&c->throttled, __ATOMIC_RELAXED)) {
        t->stack[d] = (uintptr_t)c | COUNTED;
        t->starts[d] = sp_hook_ticks();
        t->depth = d + 1;
        return;
    }
    if (--c->countdown == 0) return enter_sampled(t, c, d);
    t->stack[d] = (uintptr_t)c | RECORDED;
    t->depth = d + 1;
    sp_begin(c->region);
}

/* The usual call (a cached function, neither throttled nor sampled) in a few
 * instructions and no stack frame: every other case goes to the functions
 * above, as a tail call. The cache is filled only while a session records;
 * a call after it ends is "recorded" by an sp_begin that does nothing. */
void __cyg_profile_func_enter(void *fn, void *site) {
    (void)site;
    hook_thread *t = &self;
    uintptr_t addr = (uintptr_t)fn;
    uintptr_t i = CACHE_INDEX(addr);
    uintptr_t d = t->depth;
    if (UNLIKELY(t->cache_addr[i] != addr || d >= MAX_DEPTH)) return enter_slow(addr);
    counts *c = t->cache_counts[i];
    if (UNLIKELY(__atomic_load_n(&c->throttled, __ATOMIC_RELAXED))) return enter_slow(addr);
    if (UNLIKELY(--c->countdown == 0)) return enter_sampled(t, c, d);
    t->stack[d] = (uintptr_t)c; /* RECORDED */
    t->depth = d + 1;
    sp_begin(c->region);
}

static SLOW void exit_other(hook_thread *t, uintptr_t frame, uintptr_t d) {
    counts *c = (counts *)(frame & ~(uintptr_t)KIND_BITS);
    uintptr_t kind = frame & KIND_BITS;
    if (kind == TIMED) {
        sp_end_at(c->region, NULL, 0);
        uint64_t now = sp_hook_ticks();
        c->sampled++;
        c->sampled_ticks += now > t->starts[d] ? now - t->starts[d] : 0;
    } else if (kind == COUNTED) {
        uint64_t now = sp_hook_ticks();
        uint64_t ticks = now > t->starts[d] ? now - t->starts[d] : 0;
        /* only this thread writes them; finalize reads them while threads may still run */
        __atomic_store_n(&c->counted, c->counted + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&c->counted_ticks, c->counted_ticks + ticks, __ATOMIC_RELAXED);
    }
}

void __cyg_profile_func_exit(void *fn, void *site) {
    (void)fn;
    (void)site;
    hook_thread *t = &self;
    uintptr_t d = t->depth - 1;
    if (UNLIKELY(d >= MAX_DEPTH)) { /* entered before the hooks were on, or not stored */
        if (t->depth) t->depth = d;
        return;
    }
    uintptr_t frame = t->stack[d];
    t->depth = d;
    if (UNLIKELY(frame & KIND_BITS)) return exit_other(t, frame, d);
    sp_end_at(((counts *)frame)->region, NULL, 0);
}

/* "a;b;c" into an array of globs. */
static void split_globs(const char *text, char ***out, size_t *n) {
    if (!text || !*text) return;
    char *copy = strdup(text);
    if (!copy) return;
    size_t parts = 1;
    for (const char *p = copy; *p; p++)
        parts += *p == ';';
    *out = calloc(parts, sizeof **out);
    if (!*out) {
        free(copy);
        return;
    }
    for (char *save = NULL, *tok = strtok_r(copy, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save))
        (*out)[(*n)++] = tok; /* the copy stays: the globs point into it */
}

static uint64_t env_number(const char *name, uint64_t fallback) {
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    char *end = NULL;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end) {
        fprintf(stderr, "scope-profiler: ignoring %s=\"%s\": expected a whole number\n", name, v);
        return fallback;
    }
    return n;
}

void sp_preload_functions_start(void) {
    throttle_calls = env_number("SCOPE_PROFILER_THROTTLE_CALLS", throttle_calls);
    throttle_ns = env_number("SCOPE_PROFILER_THROTTLE_NS", throttle_ns);
    if (throttle_calls == 0) throttle_calls = UINT64_MAX; /* 0: never throttle */
    /* checked when the count reaches a multiple of CHECK_EVERY, from throttle_calls on */
    first_check = throttle_calls > UINT64_MAX - CHECK_EVERY
                      ? 0
                      : (throttle_calls + CHECK_EVERY - 1) / CHECK_EVERY * CHECK_EVERY;
    sp_hook_clock_start();
    split_globs(getenv("SCOPE_PROFILER_FUNCTIONS_INCLUDE"), &includes, &num_includes);
    split_globs(getenv("SCOPE_PROFILER_FUNCTIONS_EXCLUDE"), &excludes, &num_excludes);
    __atomic_store_n(&enabled, 1, __ATOMIC_RELEASE);
}

/* The calls every thread only counted for one function. */
static void counted_total(uint32_t slot, uint64_t *calls, uint64_t *ns) {
    uint64_t ticks = 0;
    *calls = 0;
    for (thread_counts *t = all_threads; t; t = t->next) {
        const counts *chunk = __atomic_load_n(&t->chunks[slot / CHUNK], __ATOMIC_ACQUIRE);
        if (!chunk) continue;
        *calls += __atomic_load_n(&chunk[slot % CHUNK].counted, __ATOMIC_RELAXED);
        ticks += __atomic_load_n(&chunk[slot % CHUNK].counted_ticks, __ATOMIC_RELAXED);
    }
    *ns = (uint64_t)sp_hook_clock_ns(ticks);
}

void sp_preload_functions_name(void) {
    const sp_companion *core = sp_preload_core();
    if (!core || !__atomic_load_n(&enabled, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&lock);
    unsigned throttled = 0;
    for (uint32_t i = 0; i < CAPACITY; i++) {
        function *f = &table[i];
        if (!f->addr || f->region == SP_REGION_NONE) continue;
        uint64_t calls, ns;
        counted_total(i, &calls, &ns);
        if (!calls) continue; /* named when it was first called */
        /* the note in the table: what the rows do not hold */
        char shown[1200];
        snprintf(shown, sizeof shown, "%.1000s [throttled: +%llu calls, +%.6f s not recorded]",
                 sp_region_name(f->region), (unsigned long long)calls, (double)ns / 1e9);
        throttled++;
        sp_preload_rename_region(core, f->region, shown, f->addr);
    }
    sp_symbolize_forget();
    pthread_mutex_unlock(&lock);
    const char *quiet = getenv("SCOPE_PROFILER_QUIET");
    if (throttled && !(quiet && strcmp(quiet, "1") == 0))
        fprintf(stderr,
                "scope-profiler: %u function(s) throttled (over %llu calls, under %llu ns "
                "each): their later calls are counted, not recorded (see the table)\n",
                throttled, (unsigned long long)throttle_calls, (unsigned long long)throttle_ns);
    if (overflowed)
        fprintf(stderr,
                "scope-profiler: more than %u distinct functions: %llu calls not "
                "recorded\n",
                CAPACITY, (unsigned long long)__atomic_load_n(&overflowed, __ATOMIC_RELAXED));
}
