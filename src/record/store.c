#include "record/store.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/background.h"
#include "record/clock.h"
#include "record/journal_layout.h"
#include "record/quiesce.h"
#include "record/registry.h"
#include "record/thread_state.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define NAME_BLOCK_BYTES (64u << 10)
#define MIN_CHUNK_SLOTS  4u

static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
static int journal_fd = -1;
static char *journal_path;
static sp_journal_header *header; /* the journal's first page, mapped */
static uint64_t file_end;         /* where the next journal block goes */
static uint64_t memory_limit;     /* 0 = none */
static uint64_t bytes_taken;      /* in blocks, both kinds */
static uint32_t names_written;    /* regions 1..names_written are in the journal */
static sp_store_block name_block; /* the journal block region records go to */
static int journal_full_reported;

/* -1 until the first huge block tells whether the kernel gives huge pages
 * here; where it does not (fragmented memory, defrag = madvise), asking for
 * them only buys a compaction stall per block (measured: 5.9 ms instead of
 * 1.6 ms per 2 MiB on a VM without free huge pages). */
static int huge_pages_work = -1; /* atomic: the helper thread sets it too */

/* A thread's next block, taken and populated by the helper thread
 * (record/background.h) while the thread fills its current one, so that
 * switching blocks costs the thread no page population. */
typedef struct sp_store_spare {
    sp_background_job job;
    sp_thread *owner;
    sp_store_block block;        /* valid once `ready` */
    int ready;                   /* atomic: set by the helper, cleared by the owner */
    int requested;               /* the owner's: a job was submitted, its block not yet used */
    struct sp_store_spare *next; /* every spare (store_lock) */
} sp_store_spare;

static sp_store_spare *spares;

/* Blocks of threads that ended, with room left (issue 22 item 4): the next
 * thread's first chunks are carved from them instead of a new block, so
 * that short-lived threads cost their calls, not a block each. A pooled
 * block still holds the ended thread's chunks (finalize reads them); it is
 * unmapped when its new owner is released, or at sp_store_close. */
#define POOL_MAX 64u
static sp_store_block pool[POOL_MAX];
static uint32_t pool_size;
static sp_store_block in_flight; /* the block the helper is populating (store_lock) */
/* -1 until decided: 1 when the process may run on two CPUs or more and
 * SCOPE_PROFILER_POPULATE_AHEAD is not 0 */
static int populate_ahead = -1;

static long anon_huge_kib(void) {
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

static void *map_memory(uint64_t size) {
    /* 2 MiB alignment lets the kernel back a whole block with one huge page. */
    uint64_t align = size >= SP_STORE_BLOCK_BYTES ? SP_STORE_BLOCK_BYTES : 0;
    char *p = mmap(NULL, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (align) {
        uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
        if (start > (uintptr_t)p) munmap(p, start - (uintptr_t)p);
        uintptr_t end = (uintptr_t)p + size + align;
        if (end > start + size) munmap((void *)(start + size), end - (start + size));
        p = (char *)start;
#ifdef MADV_HUGEPAGE
        if (__atomic_load_n(&huge_pages_work, __ATOMIC_RELAXED) != 0)
            madvise(p, size, MADV_HUGEPAGE);
#endif
    }
    return p;
}

/* Populates the block in one go; where the kernel cannot, touches each page. */
static void populate(char *p, uint64_t size) {
    if (madvise(p, size, MADV_POPULATE_WRITE) == 0) return;
    long page = sysconf(_SC_PAGESIZE);
    for (uint64_t off = 0; off < size; off += (uint64_t)page)
        ((volatile char *)p)[off] = 0;
}

/* The latest (ticks, ns) pair, so that recover can convert ticks of a run
 * that never reached its second calibration point. */
static void note_calibration_point(void) {
    if (!header) return;
    uint64_t ticks = sp_clock_ticks();
    int64_t ns = sp_clock_monotonic_ns();
    __atomic_store_n(&header->latest_sequence, header->latest_sequence + 1, __ATOMIC_RELAXED);
    SP_FULL_FENCE(); /* the odd sequence is visible before the point */
    header->latest_ticks = ticks;
    header->latest_ns = ns;
    __atomic_store_n(&header->latest_sequence, header->latest_sequence + 1, __ATOMIC_RELEASE);
}

static void write_block_header(char *base, uint64_t size, int64_t offset, uint32_t kind,
                               const sp_thread *t) {
    sp_journal_block *b = (sp_journal_block *)base;
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->thread = t ? t->index : 0;
    b->size = size;
    b->offset = (uint64_t)offset;
    b->native_id = t ? t->native_id : 0;
    b->magic = SP_BLOCK_MAGIC;
    b->check = sp_journal_check(b, offsetof(sp_journal_block, check), (uint64_t)offset);
}

/* A journal block at the end of the file; 0 when the file cannot grow. */
static int take_journal_block(uint64_t size, sp_store_block *out) {
    uint64_t offset = file_end;
    struct rlimit limit; /* growing past RLIMIT_FSIZE would raise SIGXFSZ */
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        offset + size > (uint64_t)limit.rlim_cur) {
        errno = EFBIG;
        return 0;
    }
    int rc = posix_fallocate(journal_fd, (off_t)offset, (off_t)size);
    if (rc != 0) {
        errno = rc;
        return 0;
    }
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, journal_fd, (off_t)offset);
    if (p == MAP_FAILED) return 0;
    file_end += size;
    out->base = p;
    out->size = size;
    out->offset = (int64_t)offset;
    return 1;
}

/* Puts zeros in a journal block's pages through the file: the page cache
 * fills them in a batch, so that populating the mapping then only maps them
 * (measured on ext4: 0.46 ms per 2 MiB in all, against 1.0 ms when the
 * mapping's faults allocate every page); 0 if a write fails. */
static int write_zeros(int fd, uint64_t offset, uint64_t size) {
    static const char zeros[64u << 10];
    for (uint64_t done = 0; done < size;) {
        size_t piece = size - done < sizeof zeros ? (size_t)(size - done) : sizeof zeros;
        ssize_t n = pwrite(fd, zeros, piece, (off_t)(offset + done));
        if (n <= 0) return 0;
        done += (uint64_t)n;
    }
    return 1;
}

/* Populates a block just taken from the journal `fd` or anonymous (no lock
 * needed); the first anonymous 2 MiB block tells whether huge pages work here. */
static void populate_block(const sp_store_block *b, int fd) {
    if (b->offset >= 0) write_zeros(fd, (uint64_t)b->offset, b->size);
    int probe = b->offset < 0 && b->size >= SP_STORE_BLOCK_BYTES &&
                __atomic_load_n(&huge_pages_work, __ATOMIC_RELAXED) < 0;
    long huge_before = probe ? anon_huge_kib() : -1;
    populate(b->base, b->size);
    if (huge_before >= 0)
        __atomic_store_n(&huge_pages_work, anon_huge_kib() > huge_before, __ATOMIC_RELAXED);
}

/* A block of at least `size` bytes (store_lock held), not yet populated; 0
 * over the limit or out of memory. */
static int take_block_unpopulated(uint64_t size, sp_store_block *out) {
    if (memory_limit && bytes_taken + size > memory_limit) {
        /* what is left under the limit, if it is worth a block */
        uint64_t left = bytes_taken < memory_limit ? (memory_limit - bytes_taken) & ~4095ull : 0;
        if (left < (64u << 10) || left < size / 32) return 0;
        size = left;
    }
    if (journal_fd < 0 || !take_journal_block(size, out)) {
        if (journal_fd >= 0 && !journal_full_reported) {
            journal_full_reported = 1;
            fprintf(stderr,
                    "scope-profiler: the journal %s cannot grow (%s); further calls are kept in "
                    "memory only and are lost if the process is killed\n",
                    journal_path, strerror(errno));
        }
        char *p = map_memory(size);
        if (!p) return 0;
        out->base = p;
        out->size = size;
        out->offset = -1;
    }
    out->used = sizeof(sp_journal_block);
    bytes_taken += size;
    note_calibration_point();
    return 1;
}

/* The same, populated. */
static int take_block(uint64_t size, sp_store_block *out) {
    if (!take_block_unpopulated(size, out)) return 0;
    populate_block(out, journal_fd);
    return 1;
}

static void give_back(sp_store_block *b) {
    if (b->offset >= 0) {
        /* the file keeps its length; recover skips the block */
        madvise(b->base, b->size, MADV_REMOVE);
        ((sp_journal_block *)b->base)->kind = SP_BLOCK_FREE;
        sp_journal_block *h = (sp_journal_block *)b->base;
        h->check = sp_journal_check(h, offsetof(sp_journal_block, check), (uint64_t)b->offset);
    }
    munmap(b->base, b->size);
    pthread_mutex_lock(&store_lock);
    bytes_taken -= b->size;
    pthread_mutex_unlock(&store_lock);
}

/* Region records for regions 1..upto not yet in the journal (store_lock held). */
static void write_names(uint32_t upto) {
    while (names_written < upto) {
        sp_region_t r = names_written + 1;
        const char *name = sp_registry_name(r);
        const char *file;
        int line;
        sp_registry_location(r, &file, &line);
        if (!name) return;
        if (!file) file = "";
        size_t name_length = strlen(name), file_length = strlen(file);
        uint64_t bytes = (sizeof(sp_journal_name) + name_length + file_length + 7) & ~7ull;
        if (!name_block.base || name_block.used + bytes > name_block.size) {
            uint64_t size = NAME_BLOCK_BYTES;
            while (size < bytes + sizeof(sp_journal_block))
                size *= 2;
            sp_store_block b;
            memset(&b, 0, sizeof b);
            if (!take_block(size, &b) || b.offset < 0 ||
                b.size < bytes + sizeof(sp_journal_block)) {
                if (b.base) {
                    munmap(b.base, b.size);
                    bytes_taken -= b.size;
                }
                return;
            }
            if (name_block.base) { /* full: its records stay in the file */
                munmap(name_block.base, name_block.size);
                bytes_taken -= name_block.size;
            }
            name_block = b;
            write_block_header(b.base, b.size, b.offset, SP_BLOCK_NAMES, NULL);
        }
        sp_journal_name *rec = (sp_journal_name *)(name_block.base + name_block.used);
        memset(rec, 0, sizeof *rec);
        rec->magic = SP_NAME_MAGIC; /* for the check; stored for real last */
        rec->region = r;
        rec->line = line;
        rec->name_length = (uint32_t)name_length;
        rec->file_length = (uint32_t)file_length;
        memcpy((char *)(rec + 1), name, name_length);
        memcpy((char *)(rec + 1) + name_length, file, file_length);
        uint64_t seed = (uint64_t)name_block.offset + name_block.used;
        uint64_t check = sp_journal_check(rec, offsetof(sp_journal_name, check), seed);
        rec->check = sp_journal_check(rec + 1, name_length + file_length, check);
        rec->magic = 0;
        __atomic_store_n(&rec->magic, SP_NAME_MAGIC, __ATOMIC_RELEASE);
        name_block.used += bytes;
        __atomic_store_n(&names_written, r, __ATOMIC_RELEASE);
    }
}

static int add_block(sp_thread *t, const sp_store_block *b) {
    if (t->num_blocks == t->max_blocks) {
        uint32_t max = t->max_blocks ? t->max_blocks * 2 : 8;
        sp_store_block *list = realloc(t->blocks, max * sizeof *list);
        if (!list) return 0;
        t->blocks = list;
        t->max_blocks = max;
    }
    t->blocks[t->num_blocks++] = *b;
    return 1;
}

/* On the helper thread: takes and populates the owner's next block. */
static void fill_spare(sp_background_job *job) {
    sp_store_spare *s = (sp_store_spare *)job;
    sp_store_block b;
    memset(&b, 0, sizeof b);
    pthread_mutex_lock(&store_lock);
    /* under a memory limit only a whole block that fits: the rest is the owner's to decide */
    int ok = (!memory_limit || bytes_taken + SP_STORE_BLOCK_BYTES <= memory_limit) &&
             take_block_unpopulated(SP_STORE_BLOCK_BYTES, &b);
    if (ok) in_flight = b;
    int fd = journal_fd;
    pthread_mutex_unlock(&store_lock);
    if (!ok) return;
    populate_block(&b, fd);
    write_block_header(b.base, b.size, b.offset, SP_BLOCK_CHUNKS, s->owner);
    pthread_mutex_lock(&store_lock);
    memset(&in_flight, 0, sizeof in_flight);
    s->block = b;
    pthread_mutex_unlock(&store_lock);
    __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
}

static int decide_populate_ahead(void) {
    const char *v = getenv("SCOPE_PROFILER_POPULATE_AHEAD");
    if (v && *v) return strcmp(v, "0") != 0;
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 1;
    return CPU_COUNT(&cpus) >= 2; /* on one CPU the helper's work would delay the thread anyway */
}

/* Has the thread's next block populated ahead (unless it is already). */
static void request_spare(sp_thread *t) {
    sp_store_spare *s = t->spare;
    if (s && (s->requested || __atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))) return;
    int ahead = __atomic_load_n(&populate_ahead, __ATOMIC_RELAXED);
    if (ahead < 0) {
        ahead = decide_populate_ahead();
        __atomic_store_n(&populate_ahead, ahead, __ATOMIC_RELAXED);
    }
    if (!ahead) return;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s) return;
        s->job.run = fill_spare;
        s->owner = t;
        pthread_mutex_lock(&store_lock);
        s->next = spares;
        spares = s;
        pthread_mutex_unlock(&store_lock);
        t->spare = s;
    }
    s->requested = 1;
    if (!sp_background_submit(&s->job)) { /* no helper thread: populate in place from now on */
        s->requested = 0;
        __atomic_store_n(&populate_ahead, 0, __ATOMIC_RELAXED);
    }
}

/* The thread needs a block: its spare if the helper has populated it. */
static int use_spare(sp_thread *t, sp_store_block *out) {
    sp_store_spare *s = t->spare;
    if (!s || !s->requested) return 0;
    if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) {
        /* still being populated (it will be the next block), or it failed */
        if (!sp_background_pending(&s->job)) s->requested = 0;
        return 0;
    }
    *out = s->block;
    __atomic_store_n(&s->ready, 0, __ATOMIC_RELAXED);
    s->requested = 0;
    return 1;
}

/* Gives the thread's spare back (finalize, thread state freed). */
static void drop_spare(sp_thread *t) {
    sp_store_spare *s = t->spare;
    if (!s) return;
    sp_background_cancel(&s->job);
    if (__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) give_back(&s->block);
    pthread_mutex_lock(&store_lock);
    for (sp_store_spare **link = &spares; *link; link = &(*link)->next)
        if (*link == s) {
            *link = s->next;
            break;
        }
    pthread_mutex_unlock(&store_lock);
    free(s);
    t->spare = NULL;
}

void sp_store_thread_ended(sp_thread *t) {
    drop_spare(t); /* a block populated ahead that it will never use */
    pthread_mutex_lock(&store_lock);
    uint64_t min_bytes = sizeof(sp_journal_chunk) + 4096;
    if (t->num_blocks && pool_size < POOL_MAX) {
        sp_store_block *last = &t->blocks[t->num_blocks - 1];
        if (last->size - last->used >= min_bytes) {
            pool[pool_size++] = *last; /* its new owner unmaps it */
            t->num_blocks--;
        }
    }
    pthread_mutex_unlock(&store_lock);
}

/* A pooled block for a thread that has none yet (store_lock held). */
static int take_pooled(sp_thread *t) {
    if (t->num_blocks || !pool_size) return 0;
    if (!add_block(t, &pool[pool_size - 1])) return 0;
    pool_size--;
    t->pooled_block = 1;
    return 1;
}

sp_event_slot *sp_store_chunk(sp_thread *t, uint32_t region, uint32_t sequence, uint32_t wanted,
                              uint32_t *got) {
    uint64_t header_bytes = sizeof(sp_journal_chunk);
    sp_store_block *last = t->num_blocks ? &t->blocks[t->num_blocks - 1] : NULL;
    uint64_t room = last ? last->size - last->used : 0;
    uint64_t min_bytes = header_bytes + MIN_CHUNK_SLOTS * sizeof(sp_event_slot);
    int need_names = journal_fd >= 0 && region > __atomic_load_n(&names_written, __ATOMIC_ACQUIRE);
    if (need_names || room < min_bytes) {
        pthread_mutex_lock(&store_lock);
        if (header && region > names_written) write_names(sp_registry_count());
        int ok = 1;
        if (room < min_bytes && take_pooled(t)) {
            last = &t->blocks[t->num_blocks - 1];
            room = last->size - last->used;
        }
        if (room < min_bytes) {
            uint64_t size = t->num_blocks ? SP_STORE_BLOCK_BYTES : SP_STORE_FIRST_BLOCK_BYTES;
            sp_store_block b;
            if (!use_spare(t, &b)) {
                ok = take_block(size, &b);
                if (ok) write_block_header(b.base, b.size, b.offset, SP_BLOCK_CHUNKS, t);
            }
            if (ok && !add_block(t, &b)) {
                munmap(b.base, b.size);
                bytes_taken -= b.size;
                ok = 0;
            }
        }
        pthread_mutex_unlock(&store_lock);
        if (!ok) return NULL;
        last = &t->blocks[t->num_blocks - 1];
        room = last->size - last->used;
    }
    uint64_t slots = (room - header_bytes) / sizeof(sp_event_slot);
    if (slots > wanted) slots = wanted;
    sp_journal_chunk *c = (sp_journal_chunk *)(last->base + last->used);
    sp_journal_chunk h = {
        SP_CHUNK_MAGIC, region, t->index, (uint32_t)slots, sequence, 0, 0, 0, 0, 0};
    uint64_t seed = last->offset >= 0 ? (uint64_t)last->offset + last->used : 0;
    h.check = sp_journal_check(&h, offsetof(sp_journal_chunk, check), seed);
    /* the magic last: a header without it is never taken for a whole one */
    memcpy((char *)c + sizeof h.magic, (const char *)&h + sizeof h.magic,
           sizeof h - sizeof h.magic);
    __atomic_store_n(&c->magic, SP_CHUNK_MAGIC, __ATOMIC_RELEASE);
    last->used += header_bytes + slots * sizeof(sp_event_slot);
    /* a thread past half its first block records a lot: from then on its next
     * block is always being populated ahead */
    if (t->num_blocks > 1 || (!t->pooled_block && last->used * 2 >= last->size)) request_spare(t);
    *got = (uint32_t)slots;
    return (sp_event_slot *)(c + 1);
}

int sp_store_could_take(uint64_t bytes) {
    pthread_mutex_lock(&store_lock);
    uint64_t taken = bytes_taken, limit = memory_limit;
    pthread_mutex_unlock(&store_lock);
    if (limit && (bytes > limit || taken > limit - bytes)) return 0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages <= 0 || page <= 0 || bytes / (uint64_t)page < (uint64_t)pages;
}

void sp_store_rollback(sp_thread *t, uint32_t num_blocks, uint64_t used) {
    while (t->num_blocks > num_blocks && t->num_blocks > 0)
        give_back(&t->blocks[--t->num_blocks]);
    if (t->num_blocks && num_blocks) {
        sp_store_block *last = &t->blocks[t->num_blocks - 1];
        if (last->used > used) memset(last->base + used, 0, last->used - used);
        last->used = used;
    }
}

void sp_store_release_thread(sp_thread *t) {
    drop_spare(t);
    for (uint32_t i = 0; i < t->num_blocks; i++)
        munmap(t->blocks[i].base, t->blocks[i].size);
    pthread_mutex_lock(&store_lock);
    for (uint32_t i = 0; i < t->num_blocks; i++)
        bytes_taken -= t->blocks[i].size;
    pthread_mutex_unlock(&store_lock);
    free(t->blocks);
    t->blocks = NULL;
    t->pooled_block = 0;
    t->num_blocks = t->max_blocks = 0;
}

void sp_store_discard(void *p, size_t bytes) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_DONTNEED);
}

/* ---- the journal file ------------------------------------------------------ */

static int journal_wanted(const sp_config *cfg) {
    const char *v = getenv("SCOPE_PROFILER_JOURNAL");
    if (v && *v) {
        if (!strcmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "true") ||
            !strcasecmp(v, "yes"))
            return 1;
        if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "false") ||
            !strcasecmp(v, "no"))
            return 0;
        fprintf(stderr, "scope-profiler: ignoring SCOPE_PROFILER_JOURNAL=\"%s\": expected 1 or 0\n",
                v);
    }
    if (cfg->journal == SP_JOURNAL_ON) return 1;
    if (cfg->journal == SP_JOURNAL_OFF) return 0;
    return SP_JOURNAL_DEFAULT_ON;
}

/* DIR/BASE.journal-HOST-PID: DIR is the chosen directory or the output's. */
static char *journal_name(const sp_config *cfg, const char *host) {
    const char *dir_env = getenv("SCOPE_PROFILER_JOURNAL_DIR");
    const char *chosen = dir_env && *dir_env ? dir_env : cfg->journal_dir;
    char *out_copy = strdup(cfg->file_path), *base_copy = strdup(cfg->file_path);
    if (!out_copy || !base_copy) {
        free(out_copy);
        free(base_copy);
        return NULL;
    }
    const char *dir = chosen && *chosen ? chosen : dirname(out_copy);
    const char *base = basename(base_copy);
    size_t n = strlen(dir) + strlen(base) + strlen(host) + 48;
    char *path = malloc(n);
    if (path) snprintf(path, n, "%s/%s.journal-%s-%ld", dir, base, host, (long)getpid());
    free(out_copy);
    free(base_copy);
    return path;
}

static void copy_text(char *dst, size_t size, const char *src) {
    if (!src) src = "";
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void sp_store_open(const sp_config *cfg) {
    pthread_mutex_lock(&store_lock);
    memory_limit = cfg->memory_limit;
    names_written = 0;
    __atomic_store_n(&populate_ahead, -1, __ATOMIC_RELAXED); /* the environment may have changed */
    journal_full_reported = 0;
    memset(&name_block, 0, sizeof name_block);
    int want = journal_wanted(cfg);
    char host[64] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0]) strcpy(host, "host");
    for (char *p = host; *p; p++)
        if (*p == '.') *p = '\0'; /* the short name */
    if (want && (journal_path = journal_name(cfg, host)) != NULL) {
        journal_fd = open(journal_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        void *h = MAP_FAILED;
        struct rlimit limit;
        if (journal_fd >= 0 && getrlimit(RLIMIT_FSIZE, &limit) == 0 &&
            limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < SP_JOURNAL_HEADER_SIZE) {
            close(journal_fd);
            unlink(journal_path);
            journal_fd = -1;
            errno = EFBIG;
        }
        int rc = journal_fd >= 0 ? posix_fallocate(journal_fd, 0, SP_JOURNAL_HEADER_SIZE) : errno;
        if (rc) errno = rc;
        if (journal_fd >= 0 && rc == 0)
            h = mmap(NULL, SP_JOURNAL_HEADER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, journal_fd,
                     0);
        if (h == MAP_FAILED) {
            fprintf(stderr,
                    "scope-profiler: cannot create the journal %s (%s): recording in memory only "
                    "(set SCOPE_PROFILER_JOURNAL_DIR to a writable directory)\n",
                    journal_path, strerror(errno));
            if (journal_fd >= 0) {
                close(journal_fd);
                unlink(journal_path);
            }
            journal_fd = -1;
            free(journal_path);
            journal_path = NULL;
        } else {
            header = h;
            memcpy(header->magic, SP_JOURNAL_MAGIC, 8);
            header->version = SP_JOURNAL_VERSION;
            header->header_size = SP_JOURNAL_HEADER_SIZE;
            header->pid = getpid();
            header->rank = cfg->launcher_rank;
            header->mpi_size = 0;
            header->start_ns = sp_internal_clock_now_ns();
            header->clock_is_tsc = (uint32_t)sp_clock_uses_tsc;
            header->first_ticks = sp_clock_ticks();
            header->first_ns = sp_clock_monotonic_ns();
            copy_text(header->output_path, sizeof header->output_path, cfg->file_path);
            copy_text(header->label, sizeof header->label, cfg->label);
            copy_text(header->host, sizeof header->host, host);
            header->check = sp_journal_check(header, offsetof(sp_journal_header, check), 0);
            file_end = SP_JOURNAL_HEADER_SIZE;
            note_calibration_point();
        }
    } else if (want) {
        fprintf(stderr, "scope-profiler: out of memory naming the journal: recording in memory "
                        "only\n");
    }
    pthread_mutex_unlock(&store_lock);
}

void sp_store_close(int keep) {
    sp_background_stop();
    pthread_mutex_lock(&store_lock);
    while (pool_size) {
        sp_store_block *b = &pool[--pool_size];
        munmap(b->base, b->size);
        bytes_taken -= b->size;
    }
    if (name_block.base) munmap(name_block.base, name_block.size);
    if (name_block.base) bytes_taken -= name_block.size;
    memset(&name_block, 0, sizeof name_block);
    if (header) {
        if (!keep) header->ending = SP_ENDING_FINALIZED;
        munmap(header, SP_JOURNAL_HEADER_SIZE);
        header = NULL;
    }
    if (journal_fd >= 0) {
        close(journal_fd);
        journal_fd = -1;
        if (!keep) unlink(journal_path);
    }
    free(journal_path);
    journal_path = NULL;
    names_written = 0;
    pthread_mutex_unlock(&store_lock);
}

int sp_store_is_journal(void) {
    return journal_fd >= 0;
}

const char *sp_store_journal_path(void) {
    return journal_path;
}

void sp_store_keep_journal(unsigned ending, const char *why) {
    sp_store_mark_ending(ending, 0);
    const char *journal = sp_store_journal_path();
    if (journal)
        fprintf(stderr,
                "scope-profiler: %sthe journal %s is kept: scope-profiler recover %s -o FILE.h5 "
                "turns it into a profile\n",
                why, journal, journal);
    else
        fprintf(stderr,
                "scope-profiler: %srecording was in memory only (no journal), so this run's calls "
                "are lost\n",
                why);
}

void sp_store_mark_ending(unsigned ending, int signal_number) {
    sp_journal_header *h = __atomic_load_n(&header, __ATOMIC_ACQUIRE);
    if (!h) return;
    h->signal_number = signal_number;
    h->ending_ns = sp_clock_monotonic_ns();
    __atomic_store_n(&h->ending, ending, __ATOMIC_RELEASE);
    /* a last calibration point: the seqlock's writer may be this very thread,
     * interrupted; then the point stays odd and recover uses the older one */
    if (h->latest_sequence % 2 == 0) {
        uint64_t ticks = sp_clock_ticks();
        int64_t ns = sp_clock_monotonic_ns();
        h->latest_sequence++;
        SP_FULL_FENCE(); /* the odd sequence is visible before the point */
        h->latest_ticks = ticks;
        h->latest_ns = ns;
        __atomic_store_n(&h->latest_sequence, h->latest_sequence + 1, __ATOMIC_RELEASE);
    }
}

void sp_store_set_rank(int64_t rank, int64_t size) {
    pthread_mutex_lock(&store_lock);
    if (header) {
        header->rank = rank;
        header->mpi_size = size;
        header->check = sp_journal_check(header, offsetof(sp_journal_header, check), 0);
    }
    pthread_mutex_unlock(&store_lock);
}

void sp_store_forget_after_fork(void) {
    while (pool_size) { /* the parent's */
        sp_store_block *b = &pool[--pool_size];
        munmap(b->base, b->size);
    }
    /* store_lock was taken before fork (sp_store_lock_for_fork); the child starts clean */
    if (header) munmap(header, SP_JOURNAL_HEADER_SIZE);
    if (name_block.base) munmap(name_block.base, name_block.size);
    header = NULL;
    memset(&name_block, 0, sizeof name_block);
    if (journal_fd >= 0) close(journal_fd);
    journal_fd = -1;
    free(journal_path);
    journal_path = NULL;
    bytes_taken = 0;
    names_written = 0;
    /* the spares and the block the helper was populating are the parent's too */
    sp_background_forget_after_fork();
    if (in_flight.base) munmap(in_flight.base, in_flight.size);
    memset(&in_flight, 0, sizeof in_flight);
    while (spares) {
        sp_store_spare *s = spares;
        spares = s->next;
        if (s->ready) munmap(s->block.base, s->block.size);
        s->owner->spare = NULL;
        free(s);
    }
}

uint64_t sp_store_bytes(void) {
    pthread_mutex_lock(&store_lock);
    uint64_t n = bytes_taken;
    pthread_mutex_unlock(&store_lock);
    return n;
}

void sp_store_lock_for_fork(void) {
    pthread_mutex_lock(&store_lock);
    sp_background_lock_for_fork();
}

void sp_store_unlock_after_fork(void) {
    sp_background_unlock_after_fork();
    pthread_mutex_unlock(&store_lock);
}
