/*
 * sp_begin / sp_end: the hot path. A begin takes the next slot of the
 * region's current chunk, pushes it on the thread's stack and stores the
 * start ticks; an end pops it and stores the end ticks. The public header
 * does the usual case inline (src/record/README.md); this file is the
 * out-of-line path it falls back to, with the same fast case for callers
 * that come here directly, and a slow path for anything unusual (first call,
 * full chunk, deep stack, mismatch).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/aggregate.h"
#include "record/clock.h"
#include "record/hot_path.h"
#include "record/mismatch.h"
#include "record/quiesce.h"
#include "record/registry.h"
#include "record/thread_state.h"

#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

int sp_internal_active_;

/* Where a call goes that could not get a slot (out of memory): written, never read. */
static __thread sp_event_slot discarded_slot;

static void out_of_memory_once(void) {
    static int reported;
    if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "scope-profiler: out of memory: some calls are not recorded; the calls "
                        "recorded so far are kept\n");
}

static void begin_slow_locked(sp_thread *t, sp_region_t region);

/* A call that passed the inline check as finalize cleared the flag. */
static __attribute__((noinline)) void begin_too_late(sp_thread *t) {
    sp_quiesce_leave(t);
    sp_quiesce_count_dropped();
}

static __attribute__((noinline)) void begin_slow(sp_region_t region) {
    sp_thread *t = sp_current_thread;
    if (!t && !(t = sp_thread_attach())) {
        out_of_memory_once();
        return;
    }
    if (!sp_quiesce_enter(t)) {
        begin_too_late(t);
        return;
    }
    begin_slow_locked(t, region);
    sp_quiesce_leave(t);
}

static void begin_slow_locked(sp_thread *t, sp_region_t region) {
    if (__atomic_load_n(&sp_agg_on, __ATOMIC_RELAXED)) { /* no cursors: every begin comes here */
        sp_agg_begin(t, region);
        return;
    }
    if (t->top == t->stack_end && !sp_thread_grow_stack(t)) {
        out_of_memory_once();
        return;
    }
    sp_event_slot *slot;
    sp_journal_chunk *chunk = &t->unchecked_chunk;
    if (sp_thread_make_room(t, region)) {
        chunk = t->cursors[region].chunk;
        slot = t->cursors[region].next++;
    } else {
        if (region != SP_REGION_NONE && region <= sp_registry_count()) out_of_memory_once();
        slot = &discarded_slot; /* keeps sp_end() paired with this begin */
    }
    sp_frame *frame = t->top++;
    frame->slot = slot;
    frame->chunk = chunk;
    frame->region = region;
    slot->end = 0;
    slot->start = sp_clock_ticks();
}

/* The start time when the clock is not the TSC: out of line, so that the TSC
 * path below keeps everything in scratch registers (no stack frame). */
static __attribute__((noinline)) void stamp_start_monotonic(sp_event_slot *slot) {
    slot->start = sp_clock_monotonic_ticks();
}

/* The begin fast path, inlined into the handle and the by-name entry points. */
static inline __attribute__((always_inline)) void begin_now(sp_region_t region) {
    sp_thread *t = sp_current_thread;
    if (LIKELY(t != NULL)) {
        if (UNLIKELY(!sp_quiesce_enter(t))) {
            begin_too_late(t);
            return;
        }
        if (LIKELY(region < t->num_cursors)) {
            sp_row_cursor *cursor = &t->cursors[region];
            if (LIKELY(cursor->next != cursor->limit && t->top != t->stack_end)) {
                sp_event_slot *slot = cursor->next++;
                sp_frame *frame = t->top++;
                frame->slot = slot;
                frame->chunk = cursor->chunk;
                frame->region = region;
                slot->end = 0;
#if SP_HAVE_TSC
                if (LIKELY(sp_clock_tsc_on())) {
                    slot->start = __rdtsc();
                    sp_quiesce_leave(t);
                    return;
                }
#endif
                stamp_start_monotonic(slot);
                sp_quiesce_leave(t);
                return;
            }
        }
        if (__atomic_load_n(&sp_agg_on, __ATOMIC_RELAXED)) /* no cursors: every begin */
            sp_agg_begin(t, region);
        else
            begin_slow_locked(t, region);
        sp_quiesce_leave(t);
        return;
    }
    begin_slow(region);
}

void sp_internal_begin_v2_(sp_region_t region) {
    begin_now(region);
}

int sp_hot_path_active_value(int aggregate) {
    /* The inline path reads the TSC and fences with a compiler barrier only:
     * monotonic clock, no membarrier and aggregate mode stay out of line. */
    int inline_ok = sp_clock_tsc_on() && !sp_quiesce_self_fence && !aggregate;
    return inline_ok ? SP_INTERNAL_ACTIVE_INLINE_ : 1;
}

static __attribute__((noinline)) void end_slow(sp_region_t region, const char *file, int line,
                                               uint64_t now) {
    sp_thread *t = sp_current_thread;
    uint32_t depth = t ? sp_thread_depth(t) : 0;
    sp_region_t innermost = depth ? t->stack[depth - 1].region : SP_REGION_NONE;
    uint32_t k = depth;
    while (k > 0 && t->stack[k - 1].region != region)
        k--;
    if (k == 0) {
        sp_mismatch_unmatched(region, innermost, file, line);
        return;
    }
    /* region is open further out: the calls above it can no longer end properly. */
    uint32_t dropped = depth - k;
    for (uint32_t i = k; i < depth; i++)
        t->stack[i].slot->end = 0;
    t->dropped_calls += dropped;
    sp_thread_set_depth(t, k - 1);
    sp_frame_end(&t->stack[k - 1], now);
    sp_mismatch_out_of_order(region, innermost, dropped, file, line);
}

static __attribute__((noinline)) void end_unattached(sp_region_t region, const char *file,
                                                     int line) {
    sp_mismatch_unmatched(region, SP_REGION_NONE, file, line);
}

static inline __attribute__((always_inline)) void end_at(sp_region_t region, const char *file,
                                                         int line, uint64_t now) {
    sp_thread *t = sp_current_thread;
    if (UNLIKELY(t == NULL)) {
        end_unattached(region, file, line);
        return;
    }
    if (UNLIKELY(!sp_quiesce_enter(t))) { /* finalize has begun: the call stays open */
        sp_quiesce_leave(t);
        return;
    }
    if (LIKELY(t->top != t->stack)) {
        sp_frame *frame = t->top - 1;
        if (LIKELY(frame->region == region)) {
            t->top = frame;
            if (frame->chunk == &t->unchecked_chunk) /* aggregate mode, or a discarded call: */
                frame->slot->end = now;              /* no journal check to keep */
            else
                sp_frame_end(frame, now);
            sp_quiesce_leave(t);
            return;
        }
    }
    end_slow(region, file, line, now);
    sp_quiesce_leave(t);
}

static __attribute__((noinline)) void end_monotonic(sp_region_t region, const char *file,
                                                    int line) {
    end_at(region, file, line, sp_clock_monotonic_ticks());
}

static inline __attribute__((always_inline)) void end_now(sp_region_t region, const char *file,
                                                          int line) {
    /* The clock_gettime variant lives out of line, so that this one needs no stack frame. */
#if SP_HAVE_TSC
    if (LIKELY(sp_clock_tsc_on())) {
        end_at(region, file, line, __rdtsc());
        return;
    }
#endif
    end_monotonic(region, file, line);
}

void sp_internal_end_v2_(sp_region_t region, const char *file, int line) {
    end_now(region, file, line);
}

/* --- by name ---------------------------------------------------------------- */

/* Whether two strings are equal: inline for the short names regions have,
 * strcmp past 16 bytes. Never reads beyond either terminator. */
static inline int same_text(const char *a, const char *b) {
    for (int i = 0; i < 16; i++) {
        if (a[i] != b[i]) return 0;
        if (a[i] == '\0') return 1;
    }
    return strcmp(a + 16, b + 16) == 0;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WORD_COMPARE 0 /* the sanitizers would see the bytes past the terminator read */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WORD_COMPARE 0
#else
#define WORD_COMPARE 1
#endif
#else
#define WORD_COMPARE 1
#endif

/* Fills the entry's words and masks from its canonical name. */
static void set_words(sp_name_cache_entry *e) {
    size_t bytes = strlen(e->canonical) + 1;
    memset(e->word, 0, sizeof e->word);
    memset(e->mask, 0, sizeof e->mask);
    if (bytes > 16) return;
    memcpy(e->word, e->canonical, bytes);
    memset(e->mask, 0xff, bytes);
}

/* Whether name holds the entry's text. For a short name at an 8-byte aligned
 * address, two word loads: an aligned word never crosses a page, so reading
 * past the terminator cannot fault, and the masks drop those bytes. */
static inline int same_as_cached(const sp_name_cache_entry *e, const char *name) {
#if WORD_COMPARE
    if (LIKELY(e->mask[0] != 0 && ((uintptr_t)name & 7u) == 0)) {
        uint64_t w;
        memcpy(&w, name, sizeof w);
        if ((w & e->mask[0]) != e->word[0]) return 0;
        if (e->mask[1] == 0) return 1;
        memcpy(&w, name + 8, sizeof w); /* no terminator in the first word: name goes on */
        return (w & e->mask[1]) == e->word[1];
    }
#endif
    return same_text(e->canonical, name);
}

static uint32_t cache_slot(const char *key, uint32_t capacity) {
    return (uint32_t)(((uintptr_t)key * 0x9E3779B97F4A7C15ull) >> 40) & (capacity - 1);
}

static int cache_grow(sp_thread *t) {
    uint32_t capacity = t->name_cache_capacity ? t->name_cache_capacity * 2 : 64;
    sp_name_cache_entry *entries = calloc(capacity, sizeof *entries);
    if (!entries) return 0;
    for (uint32_t i = 0; i < t->name_cache_capacity; i++) {
        sp_name_cache_entry *e = &t->name_cache[i];
        if (!e->key) continue;
        uint32_t s = cache_slot(e->key, capacity);
        while (entries[s].key)
            s = (s + 1) & (capacity - 1);
        entries[s] = *e;
    }
    free(t->name_cache);
    t->name_cache = entries;
    t->name_cache_capacity = capacity;
    return 1;
}

/* The handle for name: from the thread's cache when the same pointer still holds
 * the same text, else from the registry (interning it if `intern`). */
static sp_region_t lookup_name(const char *name, const char *file, int line, int intern) {
    if (!name) return SP_REGION_NONE;
    sp_thread *t = sp_current_thread;
    if (!t && !(t = sp_thread_attach())) return sp_registry_intern(name, file, line);
    if (t->name_cache_capacity) {
        uint32_t mask = t->name_cache_capacity - 1;
        for (uint32_t s = cache_slot(name, t->name_cache_capacity);; s = (s + 1) & mask) {
            sp_name_cache_entry *e = &t->name_cache[s];
            if (!e->key) break;
            if (e->key == name) {
                if (same_as_cached(e, name)) return e->region;
                /* The caller reused its buffer for another name: refresh this entry. */
                sp_region_t region =
                    intern ? sp_registry_intern(name, file, line) : sp_registry_find(name);
                if (region) {
                    e->region = region;
                    e->canonical = sp_registry_name(region);
                    set_words(e);
                }
                return region;
            }
        }
    }
    sp_region_t region = intern ? sp_registry_intern(name, file, line) : sp_registry_find(name);
    if (!region) return region;
    if ((t->name_cache_used + 1) * 2 > t->name_cache_capacity && !cache_grow(t)) return region;
    uint32_t s = cache_slot(name, t->name_cache_capacity);
    while (t->name_cache[s].key)
        s = (s + 1) & (t->name_cache_capacity - 1);
    t->name_cache[s].key = name;
    t->name_cache[s].canonical = sp_registry_name(region);
    t->name_cache[s].region = region;
    set_words(&t->name_cache[s]);
    t->name_cache_used++;
    return region;
}

/* The cache entry at the pointer's home slot when it holds this pointer with
 * this text (the usual case), else NULL. */
static inline const sp_name_cache_entry *cached(const sp_thread *t, const char *name) {
    if (UNLIKELY(t == NULL || name == NULL || t->name_cache_capacity == 0)) return NULL;
    const sp_name_cache_entry *e = &t->name_cache[cache_slot(name, t->name_cache_capacity)];
    return LIKELY(e->key == name && same_as_cached(e, name)) ? e : NULL;
}

void sp_internal_begin_name_v2_(const char *name, const char *file, int line) {
    const sp_name_cache_entry *e = cached(sp_current_thread, name);
    if (LIKELY(e != NULL)) {
        begin_now(e->region);
        return;
    }
    begin_now(lookup_name(name, file, line, 1));
}

void sp_internal_end_name_v2_(const char *name, const char *file, int line) {
    /* Usually the name ends the innermost open call, and begin left it in the
     * cache: one pointer and one text comparison. */
    sp_thread *t = sp_current_thread;
    if (LIKELY(t != NULL && name != NULL && t->top != t->stack)) {
        sp_region_t innermost = t->top[-1].region;
        const sp_name_cache_entry *e = cached(t, name);
        if (LIKELY(e != NULL && e->region == innermost)) {
            end_now(innermost, file, line);
            return;
        }
        const char *canonical = sp_registry_name(innermost);
        if (canonical != NULL && strcmp(canonical, name) == 0) {
            end_now(innermost, file, line);
            return;
        }
    }
    sp_region_t region = lookup_name(name, file, line, 0);
    if (region == SP_REGION_NONE && name) {
        /* Never registered, so never opened: report it under a registered name. */
        region = sp_registry_intern(name, file, line);
    }
    end_now(region, file, line);
}

/* --- the previous ABIs -----------------------------------------------------------
 * A program built against the header of hot-path ABI 0 (no inline path: every
 * call came here) or ABI 1 (an inline path over another layout, entered
 * through sp_internal_hot_v1_, which this library leaves NULL) still links
 * and records exactly, out of line; it is told once to rebuild. */

static int old_abi_warned;

static __attribute__((noinline)) void old_abi_warn(int abi) {
    if (!__atomic_exchange_n(&old_abi_warned, 1, __ATOMIC_RELAXED))
        fprintf(stderr,
                "scope-profiler: this program was built against an older scope_profiler.h "
                "(hot-path ABI %d; this library has ABI %d): its calls are recorded out of line, "
                "correctly but slower; rebuild it against this library's header for the inline "
                "path\n",
                abi, SP_INTERNAL_HOT_ABI_);
}

#define OLD_ABI_CHECK(abi)                                                                         \
    do {                                                                                           \
        if (UNLIKELY(!__atomic_load_n(&old_abi_warned, __ATOMIC_RELAXED))) old_abi_warn(abi);      \
    } while (0)

/* The four out-of-line entry points of old ABI `abi`, named with `suffix`
 * (declared in the public header). */
#define OLD_ABI_ENTRY_POINTS(suffix, abi)                                                          \
    void sp_internal_begin_##suffix(sp_region_t region) {                                          \
        OLD_ABI_CHECK(abi);                                                                        \
        begin_now(region);                                                                         \
    }                                                                                              \
    void sp_internal_end_##suffix(sp_region_t region, const char *file, int line) {                \
        OLD_ABI_CHECK(abi);                                                                        \
        end_now(region, file, line);                                                               \
    }                                                                                              \
    void sp_internal_begin_name_##suffix(const char *name, const char *file, int line) {           \
        OLD_ABI_CHECK(abi);                                                                        \
        sp_internal_begin_name_v2_(name, file, line);                                              \
    }                                                                                              \
    void sp_internal_end_name_##suffix(const char *name, const char *file, int line) {             \
        OLD_ABI_CHECK(abi);                                                                        \
        sp_internal_end_name_v2_(name, file, line);                                                \
    }

OLD_ABI_ENTRY_POINTS(, 0)
OLD_ABI_ENTRY_POINTS(v1_, 1)

/* --- handles ------------------------------------------------------------------- */

sp_region_t sp_region_at(const char *name, const char *file, int line) {
    return sp_registry_intern(name, file, line);
}

const char *sp_region_name(sp_region_t region) {
    return sp_registry_name(region);
}

sp_status sp_reserve(sp_region_t region, uint64_t calls) {
    if (!__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED)) return SP_ERR_NOT_ACTIVE;
    if (region == SP_REGION_NONE || region > sp_registry_count()) return SP_ERR_INVALID_ARGUMENT;
    if (__atomic_load_n(&sp_agg_on, __ATOMIC_RELAXED)) return SP_OK; /* nothing to reserve */
    sp_thread *t = sp_current_thread;
    if (!t && !(t = sp_thread_attach())) return SP_ERR_OUT_OF_MEMORY;
    if (!sp_quiesce_enter(t)) {
        sp_quiesce_leave(t);
        return SP_ERR_NOT_ACTIVE;
    }
    int ok = sp_thread_reserve(t, region, calls);
    sp_quiesce_leave(t);
    return ok ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_region_t sp_internal_name_site_(sp_internal_name_site_t_ *site, const char *name,
                                   const char *file, int line) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    sp_region_t region = lookup_name(name, file, line, 1);
    if (!region || __atomic_load_n(&site->key, __ATOMIC_ACQUIRE)) return region;
    pthread_mutex_lock(&lock);
    if (!site->key) { /* written once: the handle first, then the key that publishes it */
        site->handle = region;
        __atomic_store_n(&site->key, name, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return region;
}

sp_internal_literal_t_ sp_internal_literals_[SP_INTERNAL_LITERAL_SLOTS_];

sp_region_t sp_internal_literal_(const char *name, uint64_t capacity, const char *file, int line) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    sp_region_t region = lookup_name(name, file, line, 1);
    const char *canonical = sp_registry_name(region);
    size_t bytes = canonical ? strlen(canonical) + 1 : SIZE_MAX;
    /* only a name whose array the inline check compares whole, terminator included */
    if (!region || bytes > SP_INTERNAL_LITERAL_BYTES_ || capacity > SP_INTERNAL_LITERAL_BYTES_)
        return region;
    sp_internal_literal_t_ *e = &sp_internal_literals_[sp_internal_literal_slot_(name)];
    if (__atomic_load_n(&e->key, __ATOMIC_ACQUIRE)) return region; /* first come keeps it */
    pthread_mutex_lock(&lock);
    if (!e->key) { /* the text and handle first, then the key that publishes them */
        memset(e->text, 0, sizeof e->text);
        memcpy(e->text, canonical, bytes);
        e->handle = region;
        __atomic_store_n(&e->key, name, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return region;
}

sp_region_t sp_internal_site_(sp_region_t *slot, const char *name, const char *file, int line) {
    sp_region_t region = sp_registry_intern(name, file, line);
    __atomic_store_n(slot, region, __ATOMIC_RELAXED);
    return region;
}
