#include "record/thread_state.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record/registry.h"
#include "record/store.h"

__thread sp_thread *sp_current_thread __attribute__((tls_model("initial-exec")));
const sp_internal_hot_ sp_internal_hot_off_v2_ = {NULL, 0, SP_INTERNAL_HOT_ABI_, NULL, NULL, NULL};
__thread sp_internal_tls_ sp_internal_tls_v2_
    __attribute__((tls_model("initial-exec"))) = {(sp_internal_hot_ *)&sp_internal_hot_off_v2_, 0};
/* ABI 1's thread pointer: always NULL, so that a program built against that
 * header calls out of line (record/hot_path.c warns it once). */
SP_API extern __thread void *sp_internal_hot_v1_ __attribute__((tls_model("initial-exec")));
__thread void *sp_internal_hot_v1_ __attribute__((tls_model("initial-exec")));

/* Chunks start small (100,000 regions called once cost 100,000 x 288
 * bytes) and double up to 1 MiB, so the bookkeeping per call stays far
 * below a byte. */
#define FIRST_CHUNK_SLOTS 16u
#define MAX_CHUNK_SLOTS   (65536u - 2u)

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static sp_thread *list_head;
static uint32_t num_threads;
static pthread_key_t exit_key;
static pthread_t session_owner;
static int has_session_owner;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static int64_t thread_cpu_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The thread ends: keep its buffers for finalize, remember when it ended. */
static void on_thread_exit(void *state) {
    sp_thread *t = state;
    pthread_mutex_lock(&list_lock);
    t->exited = 1;
    t->exit_cpu_ns = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
    if (!t->named) pthread_getname_np(pthread_self(), t->name, sizeof t->name);
    sp_store_thread_ended(t); /* under list_lock: never during sp_thread_reset_all */
    if (t->top == t->stack) { /* open calls stay listed for finalize's report */
        free(t->name_cache);
        t->name_cache = NULL;
        t->name_cache_capacity = t->name_cache_used = 0;
    }
    pthread_mutex_unlock(&list_lock);
    sp_current_thread = NULL;
    __atomic_store_n(&sp_internal_tls_v2_.hot, (sp_internal_hot_ *)&sp_internal_hot_off_v2_,
                     __ATOMIC_RELAXED);
}

static void make_exit_key(void) {
    pthread_key_create(&exit_key, on_thread_exit);
}

sp_thread *sp_thread_attach(void) {
    pthread_once(&exit_key_once, make_exit_key);
    sp_thread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->stack = malloc(64 * sizeof *t->stack);
    t->top = t->stack;
    t->stack_end = t->stack ? t->stack + 64 : NULL;
    if (!t->stack) {
        free(t);
        return NULL;
    }
    t->native_id = (pid_t)syscall(SYS_gettid);
    t->handle = pthread_self();
    t->abi = SP_INTERNAL_HOT_ABI_;
    t->tls = &sp_internal_tls_v2_; /* before the list: finalize reads it there */
    pthread_mutex_lock(&list_lock);
    t->next = list_head;
    list_head = t;
    pthread_mutex_unlock(&list_lock);
    pthread_setspecific(exit_key, t);
    sp_current_thread = t; /* inline once it joins a session that records inline */
    return t;
}

void sp_thread_publish(sp_thread *t) {
    if (__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED) == SP_INTERNAL_ACTIVE_INLINE_)
        __atomic_store_n(&t->tls->hot, (sp_internal_hot_ *)(void *)t, __ATOMIC_RELAXED);
}

static int grow_cursors(sp_thread *t, uint32_t needed) {
    uint32_t capacity = t->num_cursors ? t->num_cursors : 16;
    while (capacity < needed)
        capacity *= 2;
    sp_row_cursor *cursors = realloc(t->cursors, capacity * sizeof *cursors);
    if (!cursors) return 0;
    t->cursors = cursors;
    sp_row_chunks *rows = realloc(t->rows, capacity * sizeof *rows);
    if (!rows) return 0;
    t->rows = rows;
    memset(cursors + t->num_cursors, 0, (capacity - t->num_cursors) * sizeof *cursors);
    memset(rows + t->num_cursors, 0, (capacity - t->num_cursors) * sizeof *rows);
    t->num_cursors = capacity;
    return 1;
}

/* Appends an empty chunk (twice the previous one, up to 1 MiB) to the row. */
static int append_chunk(sp_thread *t, sp_region_t region) {
    sp_row_chunks *row = &t->rows[region];
    if (row->num_chunks == row->max_chunks) {
        uint32_t max = row->max_chunks ? row->max_chunks * 2 : 4;
        sp_event_slot **chunk = realloc(row->chunk, max * sizeof *chunk);
        if (!chunk) return 0;
        row->chunk = chunk;
        uint32_t *capacity = realloc(row->chunk_capacity, max * sizeof *capacity);
        if (!capacity) return 0;
        row->chunk_capacity = capacity;
        row->max_chunks = max;
    }
    uint32_t slots =
        row->num_chunks ? row->chunk_capacity[row->num_chunks - 1] * 2 : FIRST_CHUNK_SLOTS;
    if (slots > MAX_CHUNK_SLOTS) slots = MAX_CHUNK_SLOTS;
    uint32_t got = 0;
    sp_event_slot *chunk = sp_store_chunk(t, region, row->num_chunks, slots, &got);
    if (!chunk) return 0;
    row->chunk[row->num_chunks] = chunk;
    row->chunk_capacity[row->num_chunks] = got;
    row->num_chunks++;
    return 1;
}

static void report_not_stored_once(void) {
    static int reported;
    if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "scope-profiler: the memory for recorded calls is exhausted (memory limit "
                        "or out of memory): further calls are counted but not stored; the calls "
                        "recorded so far are kept\n");
}

/* Moves the cursor to the next chunk, reserved or new; when there is no
 * memory, to the discard slots (so that the calls stay cheap). */
static void next_chunk(sp_thread *t, sp_region_t region) {
    sp_row_chunks *row = &t->rows[region];
    sp_row_cursor *cursor = &t->cursors[region];
    if (!row->discarding) {
        uint32_t next = row->num_chunks ? row->current + 1 : 0;
        if (next < row->num_chunks || append_chunk(t, region)) {
            row->current = next;
            cursor->next = row->chunk[next];
            cursor->limit = row->chunk[next] + row->chunk_capacity[next];
            cursor->chunk = (sp_journal_chunk *)row->chunk[next] - 1; /* record/store.c */
            return;
        }
        report_not_stored_once();
        row->discarding = 1;
        row->current = row->num_chunks; /* every real chunk is full */
    } else {
        row->discarded += SP_DISCARD_SLOTS;
    }
    cursor->next = t->discard;
    cursor->limit = t->discard + SP_DISCARD_SLOTS;
    cursor->chunk = &t->unchecked_chunk;
}

uint64_t sp_row_not_stored(const sp_thread *t, sp_region_t region) {
    if (region >= t->num_cursors || !t->rows[region].discarding) return 0;
    return t->rows[region].discarded + (uint64_t)(t->cursors[region].next - t->discard);
}

size_t sp_row_chunk_used(const sp_thread *t, sp_region_t region, uint32_t c) {
    const sp_row_chunks *row = &t->rows[region];
    if (c < row->current) return row->chunk_capacity[c];
    if (c > row->current || !row->chunk[c] || row->discarding) return 0;
    return (size_t)(t->cursors[region].next - row->chunk[c]);
}

/* The thread's first call in this session: number it in order of arrival.
 * It runs inside the call's busy mark, so it must not take list_lock, which
 * finalize holds while it waits for busy marks to clear (record/quiesce.c). */
static void join_session(sp_thread *t) {
    t->in_session = 1;
    sp_thread_publish(t); /* finalize cleared it: the inline path again */
    t->index = __atomic_fetch_add(&num_threads, 1, __ATOMIC_RELAXED);
}

int sp_thread_make_room(sp_thread *t, sp_region_t region) {
    if (region == SP_REGION_NONE || region > sp_registry_count()) return 0;
    if (!t->in_session) join_session(t);
    if (region >= t->num_cursors && !grow_cursors(t, region + 1)) return 0;
    sp_row_cursor *cursor = &t->cursors[region];
    if (cursor->next == cursor->limit) next_chunk(t, region);
    return 1;
}

int sp_thread_reserve(sp_thread *t, sp_region_t region, uint64_t calls) {
    /* refuse what could never fit before taking anything */
    if (calls > UINT64_MAX / 32 || !sp_store_could_take(calls * sizeof(sp_event_slot))) return 0;
    if (!sp_thread_make_room(t, region)) return 0;
    sp_row_chunks *row = &t->rows[region];
    sp_row_cursor *cursor = &t->cursors[region];
    if (row->discarding) return 0;
    /* blocks are populated when taken: the room they hold is already touched */
    uint64_t room = (uint64_t)(cursor->limit - cursor->next);
    for (uint32_t c = row->current + 1; c < row->num_chunks; c++)
        room += row->chunk_capacity[c];
    uint32_t had_chunks = row->num_chunks, had_blocks = t->num_blocks;
    uint64_t had_used = t->num_blocks ? t->blocks[t->num_blocks - 1].used : 0;
    while (room < calls) {
        if (!append_chunk(t, region)) {
            row->num_chunks = had_chunks; /* leave nothing behind */
            sp_store_rollback(t, had_blocks, had_used);
            return 0;
        }
        room += row->chunk_capacity[row->num_chunks - 1];
    }
    return 1;
}

int sp_thread_grow_stack(sp_thread *t) {
    uint32_t depth = sp_thread_depth(t), capacity = sp_thread_stack_capacity(t) * 2;
    sp_frame *stack = realloc(t->stack, capacity * sizeof *stack);
    if (!stack) return 0;
    t->stack = stack;
    t->top = stack + depth;
    t->stack_end = stack + capacity;
    return 1;
}

sp_thread *sp_thread_list(void) {
    pthread_mutex_lock(&list_lock);
    sp_thread *head = list_head;
    pthread_mutex_unlock(&list_lock);
    return head;
}

void sp_thread_note_session_owner(void) {
    pthread_mutex_lock(&list_lock);
    session_owner = pthread_self();
    has_session_owner = 1;
    pthread_mutex_unlock(&list_lock);
}

int sp_thread_is_session_owner(const sp_thread *t) {
    pthread_mutex_lock(&list_lock);
    int owner = has_session_owner && !t->exited && pthread_equal(t->handle, session_owner);
    pthread_mutex_unlock(&list_lock);
    return owner;
}

uint32_t sp_thread_count(void) {
    pthread_mutex_lock(&list_lock);
    uint32_t n = __atomic_load_n(&num_threads, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&list_lock);
    return n;
}

static void free_rows(sp_thread *t) {
    for (uint32_t r = 0; r < t->num_cursors; r++) {
        sp_row_chunks *row = &t->rows[r];
        free(row->chunk);
        free(row->chunk_capacity);
    }
    free(t->rows);
    free(t->cursors);
    sp_store_release_thread(t);
    t->rows = NULL;
    t->cursors = NULL;
    t->num_cursors = 0;
}

sp_thread *sp_thread_list_locked(void) {
    pthread_mutex_lock(&list_lock);
    return list_head;
}

void sp_thread_list_unlock(void) {
    pthread_mutex_unlock(&list_lock);
}

void sp_thread_reset_all(void) {
    pthread_mutex_lock(&list_lock);
    sp_thread **link = &list_head;
    while (*link) {
        sp_thread *t = *link;
        free_rows(t);
        t->top = t->stack;
        t->dropped_calls = 0;
        if (t->exited) {
            *link = t->next;
            free(t->stack);
            free(t->name_cache);
            free(t);
            continue;
        }
        /* Live threads are numbered again on their first call of the next session;
         * until then their calls take two loads (none is inside one: quiesced) */
        t->in_session = 0;
        sp_thread_unpublish(t);
        link = &t->next;
    }
    __atomic_store_n(&num_threads, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&list_lock);
}

void sp_thread_lock_for_fork(void) {
    pthread_mutex_lock(&list_lock);
}

void sp_thread_unlock_after_fork(void) {
    pthread_mutex_unlock(&list_lock);
}

/* Only the forking thread exists in the child; the blocks are the parent's
 * (journal pages shared with it): unmapped without being written. */
void sp_thread_forget_after_fork(void) {
    sp_thread *self = sp_current_thread;
    sp_thread *t = list_head;
    while (t) {
        sp_thread *next = t->next;
        for (uint32_t i = 0; i < t->num_blocks; i++)
            munmap(t->blocks[i].base, t->blocks[i].size);
        t->num_blocks = 0;
        free(t->blocks);
        t->blocks = NULL;
        t->max_blocks = 0;
        free_rows(t);
        t->top = t->stack;
        t->dropped_calls = 0;
        t->in_session = 0;
        if (t != self) {
            free(t->stack);
            free(t->name_cache);
            free(t);
        }
        t = next;
    }
    list_head = self;
    if (self) self->next = NULL;
    if (self) sp_thread_unpublish(self); /* the child records not */
    __atomic_store_n(&num_threads, 0, __ATOMIC_RELAXED);
    has_session_owner = 0;
}
