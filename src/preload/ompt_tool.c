#include "preload/ompt_tool.h"

#include <omp-tools.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/run_options.h"
#include "preload/core_link.h"
#include "preload/symbolize.h"
#include "scope_profiler.h"

#define SITES     1024 /* distinct parallel constructs; more are not recorded (docs/run.md) */
#define MAX_NEST  16   /* nested teams per thread; deeper ones are not recorded */
#define SP_TLS    __thread __attribute__((tls_model("initial-exec")))
#define SP_EXPORT __attribute__((visibility("default")))

/* One parallel construct, by the return address of its fork call. */
typedef struct site {
    const void *codeptr; /* NULL = free; published last (release) */
    sp_region_t parallel, task;
} site;

/* A team this thread forked: what its workers need (parallel_data->ptr points here). */
typedef struct team {
    const site *s;
    sp_fork_origin origin;
    int has_origin;
} team;

/* One implicit task this thread runs; open until its join barrier. */
typedef struct task {
    const site *s; /* NULL: not recorded */
    int open;
} task;

static site sites[SITES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sp_region_t barrier_region;
static const sp_companion *core;
static unsigned long overflowed;

static SP_TLS team teams[MAX_NEST];
static SP_TLS int num_teams;
static SP_TLS task tasks[MAX_NEST];
static SP_TLS int num_tasks;
static SP_TLS unsigned char waits[MAX_NEST]; /* 1: this barrier wait opened a region */
static SP_TLS int num_waits;

static int recording(void) { return __atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED); }

static uint32_t hash(const void *p) {
    return (uint32_t)(((uintptr_t)p >> 2) * 0x9E3779B97F4A7C15ull >> 40) & (SITES - 1);
}

/* Under lock: a construct's two regions, named now (the first time the construct runs) so that
 * a journal a signal leaves holds the names. The return address lies just past the fork call,
 * inside the construct's function. */
static void new_site(site *s, const void *codeptr) {
    char function[1024], name[1100];
    sp_symbolize((uintptr_t)codeptr - 1, function, sizeof function);
    snprintf(name, sizeof name, "<omp parallel %p>", codeptr);
    s->parallel = sp_region_at(name, NULL, 0);
    snprintf(name, sizeof name, "omp parallel @ %.1000s", function);
    sp_preload_rename_region(core, s->parallel, name, (uintptr_t)codeptr);
    snprintf(name, sizeof name, "<omp implicit task %p>", codeptr);
    s->task = sp_region_at(name, NULL, 0);
    snprintf(name, sizeof name, "omp implicit task @ %.1000s", function);
    sp_preload_rename_region(core, s->task, name, (uintptr_t)codeptr);
}

static const site *site_of(const void *codeptr) {
    uint32_t i = hash(codeptr);
    for (uint32_t n = 0; n < SITES; n++, i = (i + 1) & (SITES - 1)) {
        const void *c = __atomic_load_n(&sites[i].codeptr, __ATOMIC_ACQUIRE);
        if (c == codeptr) return &sites[i];
        if (c) continue;
        pthread_mutex_lock(&lock);
        c = sites[i].codeptr;
        if (!c) {
            new_site(&sites[i], codeptr);
            __atomic_store_n(&sites[i].codeptr, codeptr, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
        if (!c || c == codeptr) return &sites[i];
    }
    __atomic_fetch_add(&overflowed, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* --- callbacks (OpenMP 5.0 § 4.5.2) ------------------------------------------------------- */

static void on_parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned int requested, int flags,
                              const void *codeptr) {
    (void)encountering_task, (void)frame, (void)requested, (void)flags;
    parallel->ptr = NULL;
    if (!recording() || !codeptr || num_teams >= MAX_NEST) return;
    const site *s = site_of(codeptr);
    if (!s) return;
    sp_begin(s->parallel);
    team *t = &teams[num_teams++];
    t->s = s;
    t->has_origin = core->fork_take_origin(&t->origin); /* after the begin: workers go under it */
    parallel->ptr = t;
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *encountering_task, int flags,
                            const void *codeptr) {
    (void)encountering_task, (void)flags, (void)codeptr;
    const team *t = parallel->ptr;
    if (!t) return;
    sp_end_at(t->s->parallel, NULL, 0);
    num_teams--;
}

static void close_task(task *k) {
    if (!k->open) return;
    k->open = 0;
    sp_end_at(k->s->task, NULL, 0);
}

/* A worker's implicit-task end comes late (libomp reports it when the thread
 * next leaves its pool), so the task closes at its join barrier instead; the
 * end only pops. The stack is per thread: task_data differs between begin and end. */
static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                             ompt_data_t *task_data, unsigned int actual, unsigned int index,
                             int flags) {
    (void)task_data, (void)actual, (void)index;
    if (flags & ompt_task_initial) return;
    if (endpoint == ompt_scope_end) {
        if (num_tasks > 0) close_task(&tasks[--num_tasks]);
        return;
    }
    if (num_tasks >= MAX_NEST) return;
    task *k = &tasks[num_tasks++];
    const team *t = parallel && recording() ? parallel->ptr : NULL;
    k->s = t ? t->s : NULL;
    k->open = t != NULL;
    if (!t) return;
    if (t->has_origin) core->fork_note_start(&t->origin);
    sp_begin(k->s->task);
}

static int is_barrier(ompt_sync_region_t kind) {
    return kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
           kind == ompt_sync_region_barrier_explicit ||
           kind == ompt_sync_region_barrier_implementation ||
           kind == ompt_sync_region_barrier_implicit_workshare ||
           kind == ompt_sync_region_barrier_implicit_parallel;
}

/* The join barrier at the end of a parallel region: implicit, reported with
 * the construct's address on the encountering thread and none on workers. */
static int is_join(ompt_sync_region_t kind, const void *codeptr, const task *k) {
    int implicit = kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
                   kind == ompt_sync_region_barrier_implicit_parallel;
    return implicit && k && (!codeptr || codeptr == k->s->codeptr);
}

static void on_sync_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel, ompt_data_t *task_data, const void *codeptr) {
    (void)parallel, (void)task_data;
    if (!is_barrier(kind)) return;
    if (endpoint == ompt_scope_end) {
        if (num_waits > 0 && waits[--num_waits]) sp_end_at(barrier_region, NULL, 0);
        return;
    }
    if (num_waits >= MAX_NEST) return;
    task *k = num_tasks > 0 && tasks[num_tasks - 1].s ? &tasks[num_tasks - 1] : NULL;
    int opens = 0;
    if (is_join(kind, codeptr, k))
        close_task(k); /* the task's work ends here; its wait is the parallel region's own time */
    else if (k && k->open && recording()) {
        sp_begin(barrier_region);
        opens = 1;
    }
    waits[num_waits++] = (unsigned char)opens;
}

/* --- the tool ------------------------------------------------------------------------------ */

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data) {
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    core = sp_preload_core();
    if (!set || !core) return 0;
    barrier_region = sp_region_at("omp barrier wait", NULL, 0);
    int ok = set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin) ==
                 ompt_set_always &&
             set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end) ==
                 ompt_set_always &&
             set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task) ==
                 ompt_set_always;
    if (!ok) {
        fputs("scope-profiler: run: the OpenMP runtime's OMPT lacks parallel or implicit-task "
              "events; OpenMP regions are not recorded\n",
              stderr);
        return 0;
    }
    set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait); /* barrier waits if any */
    return 1;
}

static void finalize_tool(ompt_data_t *data) { (void)data; }

/* Found by the OpenMP runtime (LLVM libomp) in the process at its start. */
SP_EXPORT ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                    const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
    (void)omp_version, (void)runtime_version;
    static ompt_start_tool_result_t tool = {initialize, finalize_tool, {0}};
    const char *setting = getenv("SCOPE_PROFILER_RUN_OPENMP");
    if (setting && strcmp(setting, "0") == 0) return NULL;
    return &tool;
}

void sp_preload_ompt_report(void) {
    unsigned long lost = __atomic_load_n(&overflowed, __ATOMIC_RELAXED);
    if (lost)
        fprintf(stderr,
                "scope-profiler: more than %d OpenMP parallel constructs: %lu regions not "
                "recorded\n",
                SITES, lost);
}
