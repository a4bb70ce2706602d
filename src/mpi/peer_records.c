/*
 * The side buffer of per-call peer records (peer_records.h). The records
 * live in fixed chunks, so that a wrapper's record stays where it is while
 * its MPI call runs and other threads append theirs. Programs that run with
 * MPI_THREAD_MULTIPLE record from every thread under one mutex; with
 * MPI_THREAD_SERIALIZED every thread records without it (MPI calls do not
 * overlap there), otherwise only the thread that started recording does. A
 * failed allocation stops peer data, never the call.
 */
#include "mpi/peer_records.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { CHUNK = 4096 }; /* records per chunk: 128 KiB */
_Static_assert(sizeof(sp_peer_record) == 32, "a peer record is 32 bytes (docs/format.md)");

static pthread_t owner;
static int on;
static int any_thread; /* MPI_THREAD_SERIALIZED or MULTIPLE: every thread records */
static int locking;    /* MPI_THREAD_MULTIPLE: appends take the mutex */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int complete = 1;

static sp_peer_record **chunks;
static uint64_t num_chunks, max_chunks, num_records;
static sp_peer_record *flat; /* sp_peer_data_get's copy */
/* Which thread made the records: run i holds records from run_first[i] on. */
static uint64_t *run_first;
static int32_t *run_thread;
static uint64_t num_runs, max_runs;
static int32_t *flat_threads;
static sp_peer_completion *completions;
static uint64_t num_completions, max_completions;
static sp_peer_comm *comms;
static int32_t num_comms, max_comms;
static int32_t last_comm = -1; /* one-entry cache: most calls use the same communicator */

/* Pending requests: open addressing keyed by the handle's bits, serial 0 = empty. */
typedef struct pending {
    uint64_t key;
    int64_t serial;
    int32_t comm;
} pending;
static pending *table;
static uint64_t table_size, table_used;
static int64_t next_serial;

void sp_peer_lock(void) {
    if (locking) pthread_mutex_lock(&mutex);
}

void sp_peer_unlock(void) {
    if (locking) pthread_mutex_unlock(&mutex);
}

/* The calling thread's OS id, as the core stores it (/thread_table native_id). */
static int32_t this_thread(void) {
    static __thread int32_t id;
    if (!id) id = (int32_t)syscall(SYS_gettid);
    return id;
}

/* `on` is read by every thread that calls MPI (relaxed: a thread that sees
 * it late records one call more or less, and the analysis counts calls
 * without records as unaligned). */
int sp_peer_on(void) {
    return __atomic_load_n(&on, __ATOMIC_RELAXED) &&
           (any_thread || pthread_equal(pthread_self(), owner));
}

static void stop(void) {
    __atomic_store_n(&on, 0, __ATOMIC_RELAXED);
    complete = 0;
}

void sp_peer_reset(int start) {
    for (int32_t i = 0; i < num_comms; i++)
        free(comms[i].world);
    for (uint64_t i = 0; i < num_chunks; i++)
        free(chunks[i]);
    free(chunks);
    free(flat);
    free(run_first);
    free(run_thread);
    free(flat_threads);
    free(completions);
    free(comms);
    free(table);
    chunks = NULL;
    flat = NULL;
    run_first = NULL;
    run_thread = NULL;
    flat_threads = NULL;
    completions = NULL;
    comms = NULL;
    table = NULL;
    num_chunks = max_chunks = num_records = num_runs = max_runs = 0;
    num_completions = max_completions = 0;
    num_comms = max_comms = 0;
    table_size = table_used = 0;
    next_serial = 0;
    last_comm = -1;
    complete = 1;
    owner = pthread_self();
    int provided = MPI_THREAD_SINGLE;
    if (start && PMPI_Query_thread(&provided) != MPI_SUCCESS) provided = MPI_THREAD_SINGLE;
    any_thread = provided >= MPI_THREAD_SERIALIZED;
    locking = provided == MPI_THREAD_MULTIPLE;
    __atomic_store_n(&on, start, __ATOMIC_RELAXED);
    if (start && sp_peer_comm_id(MPI_COMM_WORLD) != 0) stop();
}

/* Grows *buf (of *max elements of size elem) to hold one more than `used`. */
static int grow(void **buf, uint64_t *max, uint64_t used, size_t elem) {
    if (used < *max) return 1;
    uint64_t n = *max ? *max * 2 : 1024;
    void *grown = realloc(*buf, n * elem);
    if (!grown) return 0;
    *buf = grown;
    *max = n;
    return 1;
}

static int32_t add_comm(MPI_Comm comm) {
    int size = 0, inter = 0;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return -1;
    if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 0) return -1;
    uint64_t max = (uint64_t)max_comms;
    if (!grow((void **)&comms, &max, (uint64_t)num_comms, sizeof *comms)) return -1;
    max_comms = (int32_t)max;
    int32_t *world = malloc((size_t)size * 2 * sizeof *world);
    if (!world) return -1;
    MPI_Group group, world_group;
    for (int i = 0; i < size; i++)
        world[size + i] = i;
    int ok = PMPI_Comm_group(comm, &group) == MPI_SUCCESS;
    if (ok && PMPI_Comm_group(MPI_COMM_WORLD, &world_group) == MPI_SUCCESS) {
        ok = PMPI_Group_translate_ranks(group, size, world + size, world_group, world) ==
             MPI_SUCCESS;
        PMPI_Group_free(&world_group);
    } else {
        ok = 0;
    }
    if (ok || group != MPI_GROUP_NULL) PMPI_Group_free(&group);
    if (!ok) {
        free(world);
        return -1;
    }
    comms[num_comms] = (sp_peer_comm){comm, size, world, 0};
    return num_comms++;
}

/* The unlocked lookups (the caller holds the mutex, or needs none). */
static int32_t comm_id(MPI_Comm comm) {
    if (comm == MPI_COMM_NULL) return -1;
    if (last_comm >= 0 && comms[last_comm].handle == comm) return last_comm;
    for (int32_t i = 0; i < num_comms; i++)
        if (comms[i].handle == comm) return last_comm = i;
    int32_t id = add_comm(comm);
    if (id >= 0) last_comm = id;
    return id;
}

static int32_t world_of(int32_t id, int rank) {
    if (rank == MPI_ANY_SOURCE) return SP_PEER_ANY;
    if (id < 0 || rank < 0 || rank >= comms[id].size) return SP_PEER_NONE; /* MPI_PROC_NULL */
    return comms[id].world[rank];
}

int32_t sp_peer_comm_id(MPI_Comm comm) {
    sp_peer_lock();
    int32_t id = comm_id(comm);
    sp_peer_unlock();
    return id;
}

void sp_peer_forget_comm(MPI_Comm comm) {
    sp_peer_lock();
    for (int32_t i = 0; i < num_comms; i++)
        if (comms[i].handle == comm) comms[i].handle = MPI_COMM_NULL;
    last_comm = -1;
    sp_peer_unlock();
}

int32_t sp_peer_world(int32_t id, int rank) {
    sp_peer_lock();
    int32_t world = world_of(id, rank);
    sp_peer_unlock();
    return world;
}

/* The next record's place (chunks never move), and the thread that makes it. */
static sp_peer_record *append(void) {
    if (num_records == num_chunks * CHUNK) {
        if (!grow((void **)&chunks, &max_chunks, num_chunks, sizeof *chunks)) return NULL;
        if (!(chunks[num_chunks] = malloc(CHUNK * sizeof **chunks))) return NULL;
        num_chunks++;
    }
    int32_t thread = this_thread();
    if (!num_runs || run_thread[num_runs - 1] != thread) {
        uint64_t max = max_runs;
        if (!grow((void **)&run_first, &max, num_runs, sizeof *run_first) ||
            !grow((void **)&run_thread, &max_runs, num_runs, sizeof *run_thread))
            return NULL;
        run_first[num_runs] = num_records;
        run_thread[num_runs++] = thread;
    }
    uint64_t i = num_records++;
    return &chunks[i / CHUNK][i % CHUNK];
}

static sp_peer_record *add(sp_mpi_call call, MPI_Comm comm, int32_t peer, int32_t tag,
                           int64_t bytes) {
    sp_peer_record *r = append();
    if (!r) {
        stop();
        return NULL;
    }
    int32_t id = comm_id(comm);
    *r = (sp_peer_record){.bytes = bytes,
                          .aux = 0,
                          .peer = id >= 0 ? world_of(id, peer) : SP_PEER_NONE,
                          .tag = tag == MPI_ANY_TAG ? SP_PEER_ANY : tag,
                          .comm = id,
                          .call = (uint8_t)call};
    if (sp_peer_receives(call)) r->source = r->source_tag = SP_PEER_NONE;
    return r;
}

sp_peer_record *sp_peer_add(sp_mpi_call call, MPI_Comm comm, int32_t peer, int32_t tag,
                            int64_t bytes) {
    sp_peer_lock();
    sp_peer_record *r = add(call, comm, peer, tag, bytes);
    sp_peer_unlock();
    return r;
}

void sp_peer_collective(sp_mpi_call call, MPI_Comm comm, int root, int64_t bytes) {
    sp_peer_lock();
    sp_peer_record *r = add(call, comm, root, SP_PEER_NONE, bytes);
    if (r && r->comm >= 0) r->aux = comms[r->comm].collectives++;
    sp_peer_unlock();
}

static uint64_t key_of(MPI_Request request) {
    uint64_t key = 0;
    memcpy(&key, &request, sizeof request < sizeof key ? sizeof request : sizeof key);
    return key;
}

static uint64_t slot_of(uint64_t key) {
    return (key * 0x9E3779B97F4A7C15ull >> 20) & (table_size - 1);
}

static int rehash(void) {
    uint64_t old_size = table_size;
    pending *old = table;
    uint64_t live = 0;
    for (uint64_t i = 0; i < old_size; i++)
        live += old[i].serial > 0;
    table_size = 256; /* tombstones are dropped: the table grows with the live requests only */
    while (table_size < live * 4)
        table_size *= 2;
    table = calloc(table_size, sizeof *table);
    if (!table) {
        table = old;
        table_size = old_size;
        return 0;
    }
    table_used = 0;
    for (uint64_t i = 0; i < old_size; i++)
        if (old[i].serial > 0) {
            uint64_t s = slot_of(old[i].key);
            while (table[s].serial > 0)
                s = (s + 1) & (table_size - 1);
            table[s] = old[i];
            table_used++;
        }
    free(old);
    return 1;
}

int64_t sp_peer_request(MPI_Request request, int32_t comm) {
    if (request == MPI_REQUEST_NULL) return 0;
    sp_peer_lock();
    if ((table_used + 1) * 2 > table_size && !rehash()) {
        stop();
        sp_peer_unlock();
        return 0;
    }
    uint64_t key = key_of(request), s = slot_of(key);
    while (table[s].serial > 0 && table[s].key != key)
        s = (s + 1) & (table_size - 1);
    if (table[s].serial <= 0) table_used++;
    table[s] = (pending){key, ++next_serial, comm};
    int64_t serial = next_serial;
    sp_peer_unlock();
    return serial;
}

static uint64_t probe(uint64_t key, int64_t serial) {
    uint64_t s = slot_of(key);
    while (table[s].serial != 0) {
        if (table[s].serial > 0 && table[s].key == key && (!serial || table[s].serial == serial))
            return s;
        s = (s + 1) & (table_size - 1);
    }
    return UINT64_MAX;
}

int64_t sp_peer_find(MPI_Request request, int32_t *comm, uint64_t *key) {
    *comm = -1;
    *key = 0;
    if (!table_size || request == MPI_REQUEST_NULL) return 0;
    uint64_t s = probe(key_of(request), 0);
    if (s == UINT64_MAX) return 0;
    *comm = table[s].comm;
    *key = table[s].key;
    return table[s].serial;
}

void sp_peer_drop(uint64_t key, int64_t serial) {
    uint64_t s = table_size ? probe(key, serial) : UINT64_MAX;
    if (s != UINT64_MAX) table[s].serial = -1; /* a tombstone keeps later probes going */
}

void sp_peer_complete(sp_peer_record *rec, int64_t serial, int32_t comm, const MPI_Status *status) {
    if (!rec || serial <= 0) return;
    if (!grow((void **)&completions, &max_completions, num_completions, sizeof *completions)) {
        stop();
        return;
    }
    if (rec->tag <= 0) { /* its first completion */
        rec->aux = (int64_t)num_completions;
        rec->tag = 0;
    }
    int32_t source = SP_PEER_NONE, tag = SP_PEER_NONE;
    if (status && status != MPI_STATUS_IGNORE && status->MPI_SOURCE >= 0) {
        source = world_of(comm, status->MPI_SOURCE);
        tag = status->MPI_TAG;
    }
    completions[num_completions++] = (sp_peer_completion){serial, source, tag};
    rec->tag++;
}

/* One array of the records and one of their threads (at finalize: nothing
 * records any more); the chunks are freed as they are copied. */
static int flatten(void) {
    if (flat || !num_records) return 1;
    flat = malloc(num_records * sizeof *flat);
    flat_threads = malloc(num_records * sizeof *flat_threads);
    if (!flat || !flat_threads) return 0;
    for (uint64_t c = 0; c < num_chunks; c++) {
        uint64_t n = num_records - c * CHUNK < CHUNK ? num_records - c * CHUNK : CHUNK;
        memcpy(flat + c * CHUNK, chunks[c], n * sizeof *flat);
        free(chunks[c]);
        chunks[c] = NULL;
    }
    num_chunks = 0;
    for (uint64_t r = 0; r < num_runs; r++) {
        uint64_t end = r + 1 < num_runs ? run_first[r + 1] : num_records;
        for (uint64_t i = run_first[r]; i < end; i++)
            flat_threads[i] = run_thread[r];
    }
    return 1;
}

uint64_t sp_peer_memory(void) {
    sp_peer_lock();
    uint64_t n = num_chunks * CHUNK * sizeof **chunks + max_chunks * sizeof *chunks +
                 max_runs * (sizeof *run_first + sizeof *run_thread) +
                 max_completions * sizeof *completions + table_size * sizeof *table;
    sp_peer_unlock();
    return n;
}

sp_peer_data sp_peer_data_get(void) {
    if (!flatten()) { /* the records cannot be written: none */
        free(flat);
        free(flat_threads);
        flat = NULL;
        flat_threads = NULL;
        num_records = 0;
        complete = 0;
    }
    sp_peer_data d = {flat,  flat_threads, num_records, completions, num_completions,
                      comms, num_comms,    complete};
    return d;
}

int MPI_Comm_free(MPI_Comm *comm) {
    if (sp_peer_on() && comm) sp_peer_forget_comm(*comm);
    return PMPI_Comm_free(comm);
}
