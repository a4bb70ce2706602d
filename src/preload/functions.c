#include "preload/functions.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "preload/core_link.h"
#include "preload/symbolize.h"
#include "scope_profiler.h"

#define CAPACITY     (1u << 16) /* distinct functions; more are not recorded (docs/run.md) */
#define MAX_DEPTH    1024       /* deeper calls are not recorded */
#define SAMPLE_EVERY 16         /* calls between two timed samples, for the throttling mean */

typedef struct function {
    uintptr_t addr;     /* 0 = free; published last (release) */
    sp_region_t region; /* SP_REGION_NONE: excluded */
    int throttled;
} function;

/* One thread's counts of one function. */
typedef struct counts {
    uint64_t calls, sampled, sampled_ns, counted, counted_ns;
} counts;

#define CHUNK 256
typedef struct thread_counts {
    counts *chunks[CAPACITY / CHUNK];
    struct thread_counts *next;
} thread_counts;

typedef struct frame {
    struct counts *c;
    uint32_t slot;
    uint8_t kind; /* 0 nothing, 1 recorded, 2 recorded and timed, 3 counted only */
    int64_t start;
} frame;

static function table[CAPACITY];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int enabled;
static uint64_t throttle_calls = 100000, throttle_ns = 1000;
static char **includes, **excludes;
static size_t num_includes, num_excludes;
static thread_counts *all_threads; /* under lock; kept to the end of the process */
static uint64_t overflowed;

/* initial-exec: the library is loaded at start (LD_PRELOAD), so no __tls_get_addr per call */
#define SP_TLS __thread __attribute__((tls_model("initial-exec")))
static SP_TLS frame stack[MAX_DEPTH];
static SP_TLS int depth;
static SP_TLS thread_counts *mine;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

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

static counts *counts_of(uint32_t slot) {
    if (!mine) {
        mine = calloc(1, sizeof *mine);
        if (!mine) return NULL;
        pthread_mutex_lock(&lock);
        mine->next = all_threads;
        all_threads = mine;
        pthread_mutex_unlock(&lock);
    }
    counts **chunk = &mine->chunks[slot / CHUNK];
    if (!*chunk) {
        counts *fresh = calloc(CHUNK, sizeof *fresh);
        if (!fresh) return NULL;
        __atomic_store_n(chunk, fresh, __ATOMIC_RELEASE); /* finalize may read it meanwhile */
    }
    return &(*chunk)[slot % CHUNK];
}

/* After throttle_calls calls, and then every 1024: is the mean under throttle_ns? */
static void maybe_throttle(uint32_t slot, const counts *c) {
    if (c->calls < throttle_calls || (c->calls & 1023) || !c->sampled) return;
    if (c->sampled_ns / c->sampled < throttle_ns)
        __atomic_store_n(&table[slot].throttled, 1, __ATOMIC_RELAXED);
}

#define SP_HOOK __attribute__((no_instrument_function, visibility("default")))
void __cyg_profile_func_enter(void *fn, void *site) SP_HOOK;
void __cyg_profile_func_exit(void *fn, void *site) SP_HOOK;

void __cyg_profile_func_enter(void *fn, void *site) {
    (void)site;
    if (!__atomic_load_n(&enabled, __ATOMIC_RELAXED) ||
        !__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED))
        return;
    int d = depth++;
    if (d >= MAX_DEPTH) return;
    frame *f = &stack[d];
    f->kind = 0;
    uint32_t slot = slot_of((uintptr_t)fn);
    if (slot == CAPACITY || table[slot].region == SP_REGION_NONE) return;
    counts *c = counts_of(slot);
    if (!c) return;
    f->slot = slot;
    f->c = c;
    if (__atomic_load_n(&table[slot].throttled, __ATOMIC_RELAXED)) {
        f->kind = 3;
        f->start = now_ns();
        return;
    }
    c->calls++;
    maybe_throttle(slot, c);
    f->kind = c->calls % SAMPLE_EVERY == 0 ? 2 : 1;
    if (f->kind == 2) f->start = now_ns();
    sp_begin(table[slot].region);
}

void __cyg_profile_func_exit(void *fn, void *site) {
    (void)fn;
    (void)site;
    if (depth <= 0) return; /* entered before the hooks were on */
    int d = --depth;
    if (d >= MAX_DEPTH) return;
    frame *f = &stack[d];
    if (f->kind == 0) return;
    counts *c = f->c;
    if (f->kind == 3) {
        /* only this thread writes them; finalize reads them while threads may still run */
        __atomic_store_n(&c->counted, c->counted + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&c->counted_ns, c->counted_ns + (uint64_t)(now_ns() - f->start),
                         __ATOMIC_RELAXED);
        return;
    }
    sp_end_at(table[f->slot].region, NULL, 0);
    if (f->kind == 2) {
        c->sampled++;
        c->sampled_ns += (uint64_t)(now_ns() - f->start);
    }
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
    split_globs(getenv("SCOPE_PROFILER_FUNCTIONS_INCLUDE"), &includes, &num_includes);
    split_globs(getenv("SCOPE_PROFILER_FUNCTIONS_EXCLUDE"), &excludes, &num_excludes);
    __atomic_store_n(&enabled, 1, __ATOMIC_RELEASE);
}

/* The calls every thread only counted for one function. */
static void counted_total(uint32_t slot, uint64_t *calls, uint64_t *ns) {
    *calls = *ns = 0;
    for (thread_counts *t = all_threads; t; t = t->next) {
        const counts *chunk = __atomic_load_n(&t->chunks[slot / CHUNK], __ATOMIC_ACQUIRE);
        if (!chunk) continue;
        *calls += __atomic_load_n(&chunk[slot % CHUNK].counted, __ATOMIC_RELAXED);
        *ns += __atomic_load_n(&chunk[slot % CHUNK].counted_ns, __ATOMIC_RELAXED);
    }
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
