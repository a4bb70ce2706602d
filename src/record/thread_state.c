#include "record/thread_state.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record/registry.h"

__thread sp_thread *sp_current_thread __attribute__((tls_model("initial-exec")));

/* Chunks start small (a region called a few times costs little) and double
 * up to 1 MiB, so the bookkeeping per call stays far below a byte. The
 * largest chunk leaves 64 bytes of its 1 MiB for malloc's header, so that
 * the mapping is exactly 256 pages instead of 257. */
#define FIRST_CHUNK_SLOTS 64u
#define MAX_CHUNK_SLOTS   (65536u - 4u)

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
    pthread_mutex_unlock(&list_lock);
    sp_current_thread = NULL;
}

static void make_exit_key(void) {
    pthread_key_create(&exit_key, on_thread_exit);
}

sp_thread *sp_thread_attach(void) {
    pthread_once(&exit_key_once, make_exit_key);
    sp_thread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->stack_capacity = 64;
    t->stack = malloc(t->stack_capacity * sizeof *t->stack);
    if (!t->stack) {
        free(t);
        return NULL;
    }
    t->native_id = (pid_t)syscall(SYS_gettid);
    t->handle = pthread_self();
    pthread_mutex_lock(&list_lock);
    t->next = list_head;
    list_head = t;
    pthread_mutex_unlock(&list_lock);
    pthread_setspecific(exit_key, t);
    sp_current_thread = t;
    return t;
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
static int append_chunk(sp_row_chunks *row, int touch) {
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
    sp_event_slot *chunk = malloc((size_t)slots * sizeof *chunk);
    if (!chunk) return 0;
    if (touch) memset(chunk, 0, (size_t)slots * sizeof *chunk);
    row->chunk[row->num_chunks] = chunk;
    row->chunk_capacity[row->num_chunks] = slots;
    row->num_chunks++;
    return 1;
}

/* Moves the cursor to the next chunk, reserved or new. */
static int next_chunk(sp_row_chunks *row, sp_row_cursor *cursor) {
    uint32_t next = row->num_chunks ? row->current + 1 : 0;
    if (next == row->num_chunks && !append_chunk(row, 0)) return 0;
    row->current = next;
    cursor->next = row->chunk[next];
    cursor->limit = row->chunk[next] + row->chunk_capacity[next];
    return 1;
}

size_t sp_row_chunk_used(const sp_thread *t, sp_region_t region, uint32_t c) {
    const sp_row_chunks *row = &t->rows[region];
    if (c < row->current) return row->chunk_capacity[c];
    if (c > row->current || !row->chunk[c]) return 0;
    return (size_t)(t->cursors[region].next - row->chunk[c]);
}

/* The thread's first call in this session: number it in order of arrival. */
static void join_session(sp_thread *t) {
    t->in_session = 1;
    pthread_mutex_lock(&list_lock);
    t->index = num_threads++;
    pthread_mutex_unlock(&list_lock);
}

int sp_thread_make_room(sp_thread *t, sp_region_t region) {
    if (region == SP_REGION_NONE || region > sp_registry_count()) return 0;
    if (!t->in_session) join_session(t);
    if (region >= t->num_cursors && !grow_cursors(t, region + 1)) return 0;
    sp_row_cursor *cursor = &t->cursors[region];
    if (cursor->next == cursor->limit && !next_chunk(&t->rows[region], cursor)) return 0;
    return 1;
}

int sp_thread_reserve(sp_thread *t, sp_region_t region, uint64_t calls) {
    if (!sp_thread_make_room(t, region)) return 0;
    sp_row_chunks *row = &t->rows[region];
    sp_row_cursor *cursor = &t->cursors[region];
    /* touch what is left of the current chunk, then add touched chunks */
    memset(cursor->next, 0, (size_t)(cursor->limit - cursor->next) * sizeof *cursor->next);
    uint64_t room = (uint64_t)(cursor->limit - cursor->next);
    for (uint32_t c = row->current + 1; c < row->num_chunks; c++)
        room += row->chunk_capacity[c];
    while (room < calls) {
        if (!append_chunk(row, 1)) return 0;
        room += row->chunk_capacity[row->num_chunks - 1];
    }
    return 1;
}

int sp_thread_grow_stack(sp_thread *t) {
    uint32_t capacity = t->stack_capacity * 2;
    sp_frame *stack = realloc(t->stack, capacity * sizeof *stack);
    if (!stack) return 0;
    t->stack = stack;
    t->stack_capacity = capacity;
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
    uint32_t n = num_threads;
    pthread_mutex_unlock(&list_lock);
    return n;
}

static void free_rows(sp_thread *t) {
    for (uint32_t r = 0; r < t->num_cursors; r++) {
        sp_row_chunks *row = &t->rows[r];
        for (uint32_t c = 0; c < row->num_chunks; c++)
            free(row->chunk[c]);
        free(row->chunk);
        free(row->chunk_capacity);
    }
    free(t->rows);
    free(t->cursors);
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
        t->depth = 0;
        t->dropped_calls = 0;
        if (t->exited) {
            *link = t->next;
            free(t->stack);
            free(t->name_cache);
            free(t);
            continue;
        }
        /* Live threads are numbered again on their first call of the next session. */
        t->in_session = 0;
        link = &t->next;
    }
    num_threads = 0;
    pthread_mutex_unlock(&list_lock);
}
