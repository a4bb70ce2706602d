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
#define SAMPLE_EVERY 128        /* calls between two timed samples, for the throttling mean */
#define CHECK_EVERY  1024       /* calls between two throttling checks, past the threshold */
#define CACHE_SIZE   512        /* a thread's direct-mapped cache: function address -> counts */
_Static_assert(CHECK_EVERY % SAMPLE_EVERY == 0, "a check falls on a sampled call");

typedef struct function {
    uintptr_t addr;     /* 0 = free; published last (release) */
    sp_region_t region; /* SP_REGION_NONE: excluded */
    int throttled;
} function;

/* One thread's record of one function. */
typedef struct counts {
    int throttled;      /* this thread's copy of table[slot].throttled (set by throttle()) */
    sp_region_t region; /* SP_REGION_NONE: not set up yet */
    uint32_t countdown; /* the cache entry's, while the function is not cached */
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

/* A frame of the thread's stack, for the exit hook, 32 bits: a recorded call
 * (the usual one) is its region (1 to INT32_MAX: never SP_REGION_NONE); a
 * call that records nothing is 0; the others have the top bit set, their
 * counts and start ticks beside (hook_thread.timed). The exit hands the
 * frame as it is to the header's inline end, which only a recorded call's
 * frame can match (without the inline path, frame > 0 tells it). */
enum { NOTHING = 0, TIMED = 1, COUNTED = 2, DEEP = 3, FLAGGED = 0x80000000u };

/* A thread's view: one TLS block, so that the hooks find it with one offset.
 * The cache is one array per field, so that each is one load (or one
 * read-modify-write) off that offset with the entry's index scaled. The
 * stack's frames are stack[1] to stack[MAX_DEPTH]; stack[0] stays 0, so that
 * an exit with nothing entered reads a frame that records nothing, and
 * stack[MAX_DEPTH + 1] is DEEP while calls go deeper. depth stays within
 * 0..MAX_DEPTH + 1, so that the exit reads its frame without a bounds test. */
typedef struct hook_thread {
    uintptr_t depth;                  /* a full register: no widening before indexing */
    uintptr_t deeper;                 /* calls open beyond depth MAX_DEPTH + 1 */
    uintptr_t cache_addr[CACHE_SIZE]; /* function addresses (0: empty) */
    /* calls until the next one the fast path leaves: the next sampled call;
     * 1 for an excluded or throttled function (every call leaves) */
    uint32_t cache_countdown[CACHE_SIZE];
    sp_region_t cache_region[CACHE_SIZE]; /* what a recorded call pushes */
    counts *cache_counts[CACHE_SIZE];     /* the slow paths': its counts, or &excluded */
    thread_counts *mine;
    uint32_t stack[MAX_DEPTH + 2];
    struct {
        counts *counts;
        uint64_t start;     /* ticks */
    } timed[MAX_DEPTH + 2]; /* beside a TIMED or a COUNTED frame */
} hook_thread;

#define CACHE_INDEX(addr) (((addr) >> 4) & (CACHE_SIZE - 1))

/* What the cache holds for an excluded function (read only: every thread shares it). */
static const counts excluded = {.throttled = 1, .region = SP_REGION_NONE};

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

/* initial-exec: the library is loaded at start (LD_PRELOAD, or linked by the
 * program), so no __tls_get_addr per call; dlopen() of it would fail (docs/run.md) */
static __thread __attribute__((tls_model("initial-exec"))) hook_thread self;

/* In place in the thread's block, one instruction each (GCC would add in a
 * register and store, or compute the TLS address first): adds n to a word;
 * counts a cache entry down, 1 when it reaches 0. */
#if defined(__x86_64__)
#define ADD_IN_PLACE(word, n) __asm__("addq %1, %0" : "+m"(word) : "i"((long)(n)))
static inline __attribute__((always_inline)) int count_down(uint32_t *countdown) {
    int zero;
    __asm__("subl $1, %0" : "+m"(*countdown), "=@ccz"(zero));
    return zero;
}
#else
#define ADD_IN_PLACE(word, n) ((word) += (uintptr_t)(n))
static inline int count_down(uint32_t *countdown) {
    return --*countdown == 0;
}
#endif

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
 * and function), so that throttle() finds every copy of the flag; then found
 * without it (only this thread sets them up). */
static counts *counts_of(uint32_t slot) {
    hook_thread *t = &self;
    counts *c = t->mine ? t->mine->chunks[slot / CHUNK] : NULL;
    if (c && c[slot % CHUNK].region != SP_REGION_NONE) return &c[slot % CHUNK];
    c = NULL;
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
        if (c->region == SP_REGION_NONE) {
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

static int is_throttled(const counts *c) {
    return __atomic_load_n(&c->throttled, __ATOMIC_RELAXED);
}

/* A function this thread has not called since its cache entry went to another:
 * entry i now holds it (1 on success; 0: not recorded). The function it held
 * keeps its countdown, so that its sampling goes on where it was. */
static int cache_fill(hook_thread *t, uintptr_t i, uintptr_t addr) {
    counts *old = t->cache_counts[i];
    if (t->cache_addr[i] && old != &excluded) old->countdown = t->cache_countdown[i];
    t->cache_addr[i] = 0; /* a signal handler's call in between finds no stale half */
    uint32_t slot = slot_of(addr);
    if (slot == CAPACITY) return 0;
    counts *c = (counts *)&excluded; /* never written through: its countdown stays 1 */
    sp_region_t region = table[slot].region;
    if (region > INT32_MAX) return 0; /* not a frame (no registry holds that many) */
    if (region != SP_REGION_NONE && (c = counts_of(slot)) == NULL) return 0;
    t->cache_counts[i] = c;
    t->cache_region[i] = c->region;
    t->cache_countdown[i] = c == &excluded || is_throttled(c) || !c->countdown ? 1 : c->countdown;
    t->cache_addr[i] = addr;
    return 1;
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

static void push(hook_thread *t, uintptr_t d, uint32_t frame) {
    t->stack[d + 1] = frame;
    t->depth = d + 1;
}

/* A call with the stack full: not recorded, only counted so that its exit finds it. */
static void enter_deep(hook_thread *t, uintptr_t d) {
    if (d > MAX_DEPTH) {
        t->deeper++;
        return;
    }
    push(t, d, FLAGGED | DEEP);
}

static SLOW void enter_slow(uintptr_t addr);

/* Every SAMPLE_EVERY-th recorded call: timed; the call that reaches a check
 * decides whether the function is throttled from its next call on. */
static SLOW void enter_sampled(hook_thread *t, counts *c, uintptr_t i, uintptr_t d) {
    c->calls += SAMPLE_EVERY;
    if (c->calls == c->next_check) check_throttle(c);
    if (!is_throttled(c))
        t->cache_countdown[i] = SAMPLE_EVERY; /* else counted from the next call */
    push(t, d, FLAGGED | TIMED);
    /* started before sp_begin: the sample holds the recording's cost, as a call does */
    t->timed[d + 1].start = sp_hook_ticks();
    sp_begin(c->region);
}

/* A cached function whose countdown just reached 0: a sampled call, or every
 * call of an excluded or throttled one (kept apart from enter_sampled, so
 * that a throttled call pays for no registers saved). A throttle() by
 * another thread is seen here, so on this thread it takes effect within
 * SAMPLE_EVERY calls. */
static SLOW void enter_due(uintptr_t addr, uintptr_t d) {
    hook_thread *t = &self;
    uintptr_t i = CACHE_INDEX(addr);
    if (t->cache_addr[i] != addr) return enter_slow(addr); /* a signal handler's call took it */
    counts *c = t->cache_counts[i];
    t->cache_countdown[i] = 1;
    if (c == &excluded) return push(t, d, NOTHING);
    t->timed[d + 1].counts = c;
    if (!is_throttled(c)) return enter_sampled(t, c, i, d);
    push(t, d, FLAGGED | COUNTED);
    t->timed[d + 1].start = sp_hook_ticks();
}

/* Everything else the fast path leaves: hooks off, a cache miss, a full
 * stack. Outside a session a call gets a frame that records nothing, so that
 * the stack stays in step with the exits. */
static SLOW void enter_slow(uintptr_t addr) {
    if (!__atomic_load_n(&enabled, __ATOMIC_RELAXED)) return;
    hook_thread *t = &self;
    uintptr_t d = t->depth;
    if (d >= MAX_DEPTH) return enter_deep(t, d);
    uintptr_t i = CACHE_INDEX(addr);
    if (t->cache_addr[i] != addr &&
        (!__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED) || !cache_fill(t, i, addr)))
        return push(t, d, NOTHING);
    if (--t->cache_countdown[i] == 0) return enter_due(addr, d);
    push(t, d, t->cache_region[i]);
    sp_begin(t->cache_region[i]);
}

/* The usual call (a cached function, neither throttled nor sampled) in a few
 * instructions and no stack frame: every other case goes to the functions
 * above, as a tail call. The cache is filled only while a session records;
 * a call after it ends is "recorded" by an sp_begin that does nothing. */
void __cyg_profile_func_enter(void *fn, void *site) {
    (void)site;
    uintptr_t addr = (uintptr_t)fn;
    uintptr_t i = CACHE_INDEX(addr);
    uintptr_t d = self.depth;
    if (UNLIKELY(self.cache_addr[i] != addr || d >= MAX_DEPTH)) return enter_slow(addr);
    if (UNLIKELY(count_down(&self.cache_countdown[i]))) return enter_due(addr, d);
    sp_region_t region = self.cache_region[i];
    self.stack[d + 1] = region;
    ADD_IN_PLACE(self.depth, 1);
    sp_begin(region);
}

/* The end of a sampled call: recorded, and its time added to the samples. */
static SLOW void exit_sampled(hook_thread *t, uintptr_t d) {
    counts *c = t->timed[d].counts;
    sp_end_at(c->region, NULL, 0);
    uint64_t now = sp_hook_ticks(), start = t->timed[d].start;
    c->sampled++;
    c->sampled_ticks += now > start ? now - start : 0;
}

/* Every frame but a recorded call's; d is the depth before the exit. */
static SLOW void exit_other(hook_thread *t, uint32_t frame, uintptr_t d) {
    if (frame == NOTHING) {
        if (d) t->depth = d - 1; /* d == 0: an exit of a call entered before the hooks were on */
        return;
    }
    uint32_t kind = frame & ~FLAGGED;
    if (kind == DEEP) {
        if (t->deeper)
            t->deeper--;
        else
            t->depth = d - 1;
        return;
    }
    t->depth = d - 1;
    if (kind == TIMED) return exit_sampled(t, d);
    counts *c = t->timed[d].counts;
    uint64_t now = sp_hook_ticks(), start = t->timed[d].start;
    uint64_t ticks = now > start ? now - start : 0;
    /* only this thread writes them; finalize reads them while threads may still run */
    __atomic_store_n(&c->counted, c->counted + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&c->counted_ticks, c->counted_ticks + ticks, __ATOMIC_RELAXED);
}

#ifdef SP_INTERNAL_HOT_INLINE_
/* Every exit the inline end declined: a recorded call the session records
 * out of line (or no longer records), or another frame. */
static SLOW void exit_declined(hook_thread *t, uint32_t frame, uintptr_t d) {
    if ((int32_t)frame <= 0) return exit_other(t, frame, d);
    t->depth = d - 1;
    if (SP_INTERNAL_ACTIVE_()) sp_internal_end_v2_(frame, NULL, 0); /* where sp_end_at goes */
}
#endif

void __cyg_profile_func_exit(void *fn, void *site) {
    (void)fn;
    (void)site;
    hook_thread *t = &self;
    uintptr_t d = t->depth; /* 0..MAX_DEPTH + 1: stack[d] is always there */
    uint32_t frame = t->stack[d];
#ifdef SP_INTERNAL_HOT_INLINE_
    /* The header's inline end (scope_profiler.h), with no test of the frame's
     * kind first: the innermost open call's region is a handle, never 0 and
     * never with the top bit set, so only a recorded call's frame can match. */
    _Static_assert(SP_INTERNAL_HOT_ABI_ == 2, "check the inline end's contract");
    if (UNLIKELY(!sp_internal_hot_end_(frame))) return exit_declined(t, frame, d);
    ADD_IN_PLACE(t->depth, -1);
#else
    if (UNLIKELY((int32_t)frame <= 0)) return exit_other(t, frame, d);
    ADD_IN_PLACE(t->depth, -1);
    sp_end_at((sp_region_t)frame, NULL, 0);
#endif
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
