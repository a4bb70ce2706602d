#include "record/fork_point.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/clock.h"

#define SP_INTERPOSE __attribute__((visibility("default")))

extern int sp_internal_active_;

typedef struct fork_note {
    sp_thread *thread;
    sp_thread *parent;
    uint64_t since, fork; /* clock ticks */
} fork_note;

/* One list for the process: a note is taken once per thread and parallel
 * region (or thread start), so one lock costs less than per-thread logs. */
static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static fork_note *notes;
static size_t num_notes, notes_cap;

static int recording(void) {
    return __atomic_load_n(&sp_internal_active_, __ATOMIC_ACQUIRE) != 0;
}

/* On the forking thread: who forks and when; 0 when nothing is recorded. */
int sp_fork_take_origin(sp_fork_origin *o) {
    if (!recording() || !sp_current_thread) return 0;
    o->parent = sp_current_thread;
    o->ticks = sp_clock_ticks();
    sp_agg_origin_take(&o->agg);
    return 1;
}

/* On the started thread, before the user's function runs. */
void sp_fork_note_start(const sp_fork_origin *o) {
    if (!recording() || sp_current_thread == o->parent) return;
    sp_thread *self = sp_current_thread ? sp_current_thread : sp_thread_attach();
    if (!self) return; /* out of memory: its calls fall back to the thread-parent rule */
    sp_agg_origin_enter(self, &o->agg);
    uint64_t now = sp_clock_ticks();
    pthread_mutex_lock(&notes_lock);
    if (num_notes == notes_cap) {
        size_t cap = notes_cap ? 2 * notes_cap : 64;
        fork_note *grown = realloc(notes, cap * sizeof *grown);
        if (grown) {
            notes = grown;
            notes_cap = cap;
        }
    }
    if (num_notes < notes_cap) notes[num_notes++] = (fork_note){self, o->parent, now, o->ticks};
    pthread_mutex_unlock(&notes_lock);
}

/* The real entry point behind ours: the next definition in lookup order.
 * A program that calls no omp_* function can be linked without libgomp
 * (gcc passes it --as-needed, and our definitions satisfy the linker), so
 * for GOMP_* the runtime is loaded by its soname when it is not there. */
static void *next_symbol(void **cache, const char *name) {
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (!f) {
        f = dlsym(RTLD_NEXT, name);
        if (!f && strncmp(name, "GOMP_", 5) == 0) {
            void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
            if (gomp) f = dlsym(gomp, name);
        }
        if (!f) {
            fprintf(stderr,
                    "scope-profiler: %s is called but no library defines it (%s); link the "
                    "program with -fopenmp\n",
                    name, dlerror());
            abort();
        }
        __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    }
    return f;
}

/* ThreadSanitizer's own pthread_create hands its start routine to ours; run
 * before it, ours would touch instrumented memory on a thread TSan has not set
 * up yet (a crash). TSan builds therefore leave threads to the fallback rule. */
#if defined(__SANITIZE_THREAD__)
#define SP_WRAP_PTHREAD_CREATE 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SP_WRAP_PTHREAD_CREATE 0
#endif
#endif
#ifndef SP_WRAP_PTHREAD_CREATE
#define SP_WRAP_PTHREAD_CREATE 1
#endif

#if SP_WRAP_PTHREAD_CREATE
/* --- pthread_create (also std::thread) ------------------------------------ */

typedef struct thread_start {
    void *(*fn)(void *);
    void *arg;
    sp_fork_origin origin;
} thread_start;

static void *started_thread(void *p) {
    thread_start s = *(thread_start *)p;
    free(p);
    sp_fork_note_start(&s.origin);
    return s.fn(s.arg);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static void *real_create;

SP_INTERPOSE int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                                void *arg) {
    create_fn create = (create_fn)next_symbol(&real_create, "pthread_create");
    sp_fork_origin o;
    thread_start *s = sp_fork_take_origin(&o) ? malloc(sizeof *s) : NULL;
    if (!s) return create(thread, attr, fn, arg);
    *s = (thread_start){fn, arg, o};
    int rc = create(thread, attr, started_thread, s);
    if (rc != 0) free(s);
    return rc;
}
#endif

/* --- libgomp's parallel regions (gcc, gfortran) ---------------------------- */

typedef struct region_start {
    void (*fn)(void *);
    void *data;
    sp_fork_origin origin;
} region_start;

/* Runs on every thread of the team; the encountering thread itself is skipped. */
static void started_region(void *p) {
    region_start *r = p;
    sp_fork_note_start(&r->origin);
    r->fn(r->data);
}

/* Each wrapper passes the region through unchanged when nothing is recorded,
 * else with the user's function behind started_region. PARAMS and ARGS are the
 * entry point's parameters and arguments after (fn, data). */
#define SP_GOMP_WRAPPER(ret, name, PARAMS, ARGS)                                                   \
    static void *real_##name;                                                                      \
    SP_INTERPOSE ret name(void (*fn)(void *), void *data PARAMS) {                                 \
        ret (*next)(void (*)(void *), void *PARAMS) = next_symbol(&real_##name, #name);            \
        region_start r = {.fn = fn, .data = data};                                                 \
        if (!sp_fork_take_origin(&r.origin)) return next(fn, data ARGS);                           \
        return next(started_region, &r ARGS);                                                      \
    }

#define SP_P(...)      , __VA_ARGS__
#define SP_LOOP_PARAMS SP_P(unsigned n, long start, long end, long incr, long chunk, unsigned flags)
#define SP_LOOP_ARGS   SP_P(n, start, end, incr, chunk, flags)
#define SP_RT_PARAMS   SP_P(unsigned n, long start, long end, long incr, unsigned flags)
#define SP_RT_ARGS     SP_P(n, start, end, incr, flags)

void GOMP_parallel(void (*)(void *), void *, unsigned, unsigned);
void GOMP_parallel_sections(void (*)(void *), void *, unsigned, unsigned, unsigned);
void GOMP_parallel_loop_static(void (*)(void *), void *SP_LOOP_PARAMS);
void GOMP_parallel_loop_dynamic(void (*)(void *), void *SP_LOOP_PARAMS);
void GOMP_parallel_loop_guided(void (*)(void *), void *SP_LOOP_PARAMS);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*)(void *), void *SP_LOOP_PARAMS);
void GOMP_parallel_loop_nonmonotonic_guided(void (*)(void *), void *SP_LOOP_PARAMS);
void GOMP_parallel_loop_runtime(void (*)(void *), void *SP_RT_PARAMS);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*)(void *), void *SP_RT_PARAMS);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*)(void *), void *SP_RT_PARAMS);

SP_GOMP_WRAPPER(void, GOMP_parallel, SP_P(unsigned n, unsigned flags), SP_P(n, flags))
SP_GOMP_WRAPPER(void, GOMP_parallel_sections, SP_P(unsigned n, unsigned count, unsigned flags),
                SP_P(n, count, flags))
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_static, SP_LOOP_PARAMS, SP_LOOP_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_dynamic, SP_LOOP_PARAMS, SP_LOOP_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_guided, SP_LOOP_PARAMS, SP_LOOP_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_nonmonotonic_dynamic, SP_LOOP_PARAMS, SP_LOOP_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_nonmonotonic_guided, SP_LOOP_PARAMS, SP_LOOP_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_runtime, SP_RT_PARAMS, SP_RT_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_nonmonotonic_runtime, SP_RT_PARAMS, SP_RT_ARGS)
SP_GOMP_WRAPPER(void, GOMP_parallel_loop_maybe_nonmonotonic_runtime, SP_RT_PARAMS, SP_RT_ARGS)

/* --- finalize ----------------------------------------------------------------- */

typedef struct thread_id {
    const sp_thread *t;
    int64_t id;
} thread_id;

static int compare_thread_ptr(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const thread_id *)a)->t, y = (uintptr_t)((const thread_id *)b)->t;
    return (x > y) - (x < y);
}

static int64_t id_of(const thread_id *ids, uint32_t n, const sp_thread *t) {
    thread_id key = {t, 0};
    const thread_id *hit = bsearch(&key, ids, n, sizeof *ids, compare_thread_ptr);
    return hit ? hit->id : -1;
}

static int compare_forks(const void *a, const void *b) {
    const sp_thread_fork *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return (x->since_ns > y->since_ns) - (x->since_ns < y->since_ns);
}

sp_status sp_fork_collect(sp_model *m, sp_thread *const *threads, uint32_t n, uint32_t rank) {
    thread_id *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) return SP_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n; i++)
        ids[i] = (thread_id){threads[i], i};
    qsort(ids, n, sizeof *ids, compare_thread_ptr);
    sp_status st = SP_OK;
    pthread_mutex_lock(&notes_lock);
    m->forks = malloc((num_notes ? num_notes : 1) * sizeof *m->forks);
    if (!m->forks) st = SP_ERR_OUT_OF_MEMORY;
    m->num_forks = 0;
    for (size_t k = 0; !st && k < num_notes; k++) {
        int64_t t = id_of(ids, n, notes[k].thread), p = id_of(ids, n, notes[k].parent);
        if (t < 0 || p < 0) continue;
        m->forks[m->num_forks++] = (sp_thread_fork){rank, t, sp_clock_to_ns(notes[k].since), p,
                                                    sp_clock_to_ns(notes[k].fork)};
    }
    pthread_mutex_unlock(&notes_lock);
    free(ids);
    if (!st && m->num_forks) qsort(m->forks, m->num_forks, sizeof *m->forks, compare_forks);
    if (!st && !m->num_forks) {
        free(m->forks);
        m->forks = NULL;
    }
    return st;
}

void sp_fork_reset(void) {
    pthread_mutex_lock(&notes_lock);
    free(notes);
    notes = NULL;
    num_notes = notes_cap = 0;
    pthread_mutex_unlock(&notes_lock);
}

void sp_fork_forget_after_fork(void) {
    /* Another thread may have held the lock at fork(): start over with a fresh
     * one; the notes name the parent's threads and are dropped (not freed). */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&notes_lock, &fresh, sizeof fresh);
    notes = NULL;
    num_notes = notes_cap = 0;
}
