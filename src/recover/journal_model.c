/*
 * Journals -> one profile: rows per (rank, region) in rank order, a
 * region's calls of all threads merged in start order, ticks converted
 * with each journal's own calibration, calls still open left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/session_root.h"
#include "recover/journal_read.h"

typedef struct slot {
    uint64_t start;
    uint64_t end;
} slot;

typedef struct pending {
    int64_t start;
    int64_t end;
    int64_t thread;
} pending;

static int compare_chunks(const void *a, const void *b) {
    const sp_journal_chunk_ref *x = a, *y = b;
    if (x->region != y->region) return x->region < y->region ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return (x->sequence > y->sequence) - (x->sequence < y->sequence);
}

static int compare_pending(const void *a, const void *b) {
    const pending *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

static int compare_threads(const void *a, const void *b) {
    const sp_journal_thread *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* Ticks as ns on the CLOCK_MONOTONIC timeline; -1 when they cannot be
 * (damage: before 0 or beyond int64). */
static int64_t to_ns(const sp_journal *j, uint64_t ticks) {
    if (!j->header.clock_is_tsc) return ticks > (uint64_t)INT64_MAX / 2 ? -1 : (int64_t)ticks;
    double ns = (double)j->header.first_ns +
                (double)(int64_t)(ticks - j->header.first_ticks) * j->ns_per_tick;
    if (!(ns >= 0.0 && ns < 4.0e18)) return -1;
    return (int64_t)(ns + 0.5);
}

static slot slot_at(const sp_journal *j, const sp_journal_chunk_ref *c, uint32_t i) {
    slot s;
    memcpy(&s, j->bytes + c->offset + (uint64_t)i * sizeof s, sizeof s);
    return s;
}

/* Counts completed, open and bad calls of chunks [a, b) (one region). The
 * session root is open whenever a run dies: it is not one of the program's calls. */
static uint64_t count_calls(sp_journal *j, size_t a, size_t b, sp_recover_report *report,
                            int named, int session_root) {
    uint64_t n = 0;
    for (size_t k = a; k < b; k++) {
        const sp_journal_chunk_ref *c = &j->chunks[k];
        for (uint32_t i = 0; i < c->capacity; i++) {
            slot s = slot_at(j, c, i);
            if (!s.end && !s.start) continue;
            if (!s.end) {
                report->open_calls += !session_root;
            } else if (!s.start || (j->header.clock_is_tsc && s.end < s.start) ||
                       to_ns(j, s.start) < 0 || to_ns(j, s.end) < to_ns(j, s.start)) {
                j->bad_calls++;
            } else if (!named) {
                j->unnamed_calls++;
            } else {
                n++;
            }
        }
    }
    return n;
}

/* Index of the thread in the journal's sorted thread list (its lane). */
static int64_t lane_of(const sp_journal *j, uint32_t thread) {
    for (size_t i = 0; i < j->num_threads; i++)
        if (j->threads[i].index == thread) return (int64_t)i;
    return 0;
}

/* Region names in order of first appearance, with a hash index. */
typedef struct name_table {
    char **names;
    size_t count, max;
    uint32_t *index; /* 1 + position, 0 = empty */
    size_t index_size;
} name_table;

static uint64_t hash_name(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static int grow_index(name_table *t) {
    size_t size = t->index_size ? t->index_size * 2 : 256;
    uint32_t *index = calloc(size, sizeof *index);
    if (!index) return 0;
    for (size_t i = 0; i < t->count; i++) {
        size_t k = hash_name(t->names[i]) & (size - 1);
        while (index[k])
            k = (k + 1) & (size - 1);
        index[k] = (uint32_t)i + 1;
    }
    free(t->index);
    t->index = index;
    t->index_size = size;
    return 1;
}

static long name_index(name_table *t, const char *name) {
    if ((t->count + 1) * 2 > t->index_size && !grow_index(t)) return -1;
    size_t k = hash_name(name) & (t->index_size - 1);
    for (; t->index[k]; k = (k + 1) & (t->index_size - 1))
        if (strcmp(t->names[t->index[k] - 1], name) == 0) return (long)t->index[k] - 1;
    if (t->count == t->max) {
        size_t n = t->max ? t->max * 2 : 64;
        char **grown = realloc(t->names, n * sizeof *grown);
        if (!grown) return -1;
        t->names = grown;
        t->max = n;
    }
    if (!(t->names[t->count] = sp_strdup(name))) return -1;
    t->index[k] = (uint32_t)t->count + 1;
    return (long)t->count++;
}

static sp_status meta(sp_model *m, const sp_journal *const *js, size_t n, uint64_t open_calls,
                      uint64_t dropped, int64_t start, int64_t end) {
    char ending[256] = "";
    char joined[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        char one[200];
        sp_journal_ending_text(js[i], one, sizeof one);
        if (n > 1)
            used += (size_t)snprintf(joined + used, used < sizeof joined ? sizeof joined - used : 0,
                                     "%srank %lld: %s", i ? "; " : "",
                                     (long long)js[i]->header.rank, one);
        else
            snprintf(ending, sizeof ending, "%s", one);
    }
    sp_status st = sp_model_meta_string(m, "scope_profiler_version", SP_VERSION_STRING);
    if (!st) st = sp_model_meta_string(m, "source_language", "c");
    if (!st) st = sp_model_meta_int(m, "mpi_size", (int64_t)n);
    if (!st) st = sp_model_meta_int(m, "num_nodes", 1);
    if (!st) st = sp_model_meta_int(m, "start_time_ns", start);
    if (!st) st = sp_model_meta_int(m, "finalize_time_ns", end);
    if (!st && js[0]->header.label[0]) st = sp_model_meta_string(m, "label", js[0]->header.label);
    if (!st)
        st = sp_model_meta_string(m, "clock_source",
                                  js[0]->header.clock_is_tsc ? "tsc" : "monotonic");
    if (!st) st = sp_model_meta_int(m, "incomplete", 1);
    if (!st) st = sp_model_meta_string(m, "ending", n > 1 ? joined : ending);
    if (!st) st = sp_model_meta_string(m, "recovered_by", "scope-profiler recover");
    if (!st) st = sp_model_meta_int(m, "open_calls_left_out", (int64_t)open_calls);
    if (!st) st = sp_model_meta_int(m, "calls_dropped_as_damaged", (int64_t)dropped);
    return st;
}

sp_status sp_journal_build_model(sp_journal *const *js, size_t n, sp_model *m,
                                 sp_recover_report *report, sp_error *err) {
    memset(report, 0, sizeof *report);
    name_table names = {0};
    uint64_t total = 0;
    size_t num_rows = 0, threads_total = 0, largest = 0;
    int several_threads = 0;
    /* pass 1: sort, count */
    for (size_t k = 0; k < n; k++) {
        sp_journal *j = js[k];
        if (j->num_chunks) qsort(j->chunks, j->num_chunks, sizeof *j->chunks, compare_chunks);
        if (j->num_threads) qsort(j->threads, j->num_threads, sizeof *j->threads, compare_threads);
        threads_total += j->num_threads;
        several_threads |= j->num_threads > 1;
        for (size_t a = 0, b; a < j->num_chunks; a = b) {
            uint32_t region = j->chunks[a].region;
            for (b = a; b < j->num_chunks && j->chunks[b].region == region; b++) {
            }
            int named = region < j->num_regions && j->regions[region].name;
            int root = named && strcmp(j->regions[region].name, SP_SESSION_ROOT_NAME) == 0;
            uint64_t calls = count_calls(j, a, b, report, named, root);
            total += calls;
            num_rows += calls > 0;
            if (calls > largest) largest = calls;
        }
        report->dropped += j->bad_calls + j->unnamed_calls + j->damaged_bytes / 16;
    }
    report->calls = total;
    m->schema = 3;
    m->rows = calloc(num_rows ? num_rows : 1, sizeof *m->rows);
    m->starts = malloc((total ? total : 1) * sizeof *m->starts);
    m->durations = malloc((total ? total : 1) * sizeof *m->durations);
    if (several_threads) m->thread_ids = malloc((total ? total : 1) * sizeof *m->thread_ids);
    pending *scratch = malloc((largest ? largest : 1) * sizeof *scratch);
    m->threads = calloc(threads_total ? threads_total : 1, sizeof *m->threads);
    sp_status st = SP_ERR_OUT_OF_MEMORY;
    if (!m->rows || !m->starts || !m->durations || !scratch || !m->threads ||
        (several_threads && !m->thread_ids))
        goto done;
    m->num_events = total;
    int64_t first_ns = INT64_MAX, last_ns = INT64_MIN;
    uint64_t offset = 0;
    /* pass 2: rows of each rank (journal) in order */
    for (size_t k = 0; k < n; k++) {
        sp_journal *j = js[k];
        uint32_t rank = (uint32_t)k;
        if (j->header.first_ns < first_ns) first_ns = j->header.first_ns;
        if (j->last_ns > last_ns) last_ns = j->last_ns;
        for (size_t a = 0, b; a < j->num_chunks; a = b) {
            uint32_t region = j->chunks[a].region;
            for (b = a; b < j->num_chunks && j->chunks[b].region == region; b++) {
            }
            if (region >= j->num_regions || !j->regions[region].name) continue;
            size_t count = 0;
            int mixed = 0;
            for (size_t c = a; c < b; c++) {
                const sp_journal_chunk_ref *ref = &j->chunks[c];
                mixed |= ref->thread != j->chunks[a].thread;
                int64_t lane = lane_of(j, ref->thread);
                for (uint32_t i = 0; i < ref->capacity; i++) {
                    slot s = slot_at(j, ref, i);
                    if (!s.end || !s.start || (j->header.clock_is_tsc && s.end < s.start)) continue;
                    int64_t start = to_ns(j, s.start), end = to_ns(j, s.end);
                    if (start < 0 || end < start) continue; /* counted as bad in pass 1 */
                    scratch[count].start = start;
                    scratch[count].end = end;
                    scratch[count].thread = lane;
                    count++;
                }
            }
            if (!count) continue;
            if (mixed && count > 1) qsort(scratch, count, sizeof *scratch, compare_pending);
            long id = name_index(&names, j->regions[region].name);
            if (id < 0) goto done;
            for (size_t i = 0; i < count; i++) {
                m->starts[offset + i] = scratch[i].start;
                int64_t d = scratch[i].end - scratch[i].start;
                m->durations[offset + i] = d > 0 ? d : 0;
                if (m->thread_ids) m->thread_ids[offset + i] = scratch[i].thread;
                if (scratch[i].end > last_ns) last_ns = scratch[i].end;
            }
            sp_model_row *row = &m->rows[m->num_rows++];
            row->region = (uint32_t)id;
            row->rank = rank;
            row->offset = offset;
            row->count = count;
            row->source_line = j->regions[region].line > 0 ? j->regions[region].line : -1;
            row->exclusive_total = -1;
            row->source_file = sp_strdup(j->regions[region].file);
            row->source_text = sp_strdup("");
            row->tags = sp_strdup("[]");
            row->event_metadata = sp_strdup("[]");
            if (!row->source_file || !row->source_text || !row->tags || !row->event_metadata)
                goto done;
            sp_row_stats_compute(&row->stats, m->starts + offset, m->durations + offset, count);
            row->has_stats = 1;
            offset += count;
        }
        for (size_t t = 0; t < j->num_threads; t++) {
            sp_thread_info *info = &m->threads[m->num_threads++];
            char name[32];
            snprintf(name, sizeof name, "thread %u", j->threads[t].index);
            info->rank = rank;
            info->index = (int64_t)t;
            info->ident = j->threads[t].native_id;
            info->native_id = j->threads[t].native_id;
            info->start_ns = INT64_MAX;
            info->end_ns = INT64_MIN;
            info->cpu_ns = -1;
            info->parent_slot = t > 0 && j->threads[0].index == 0 ? 1 : 0;
            if (!(info->name = sp_strdup(name))) goto done;
        }
    }
    /* each thread's first and last activity */
    for (size_t r = 0; r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        size_t base = 0;
        while (base < m->num_threads && m->threads[base].rank != row->rank)
            base++;
        for (uint64_t e = row->offset; e < row->offset + row->count; e++) {
            size_t t = base + (size_t)(m->thread_ids ? m->thread_ids[e] : 0);
            if (t >= m->num_threads || m->threads[t].rank != row->rank) continue;
            if (m->starts[e] < m->threads[t].start_ns) m->threads[t].start_ns = m->starts[e];
            if (m->starts[e] + m->durations[e] > m->threads[t].end_ns)
                m->threads[t].end_ns = m->starts[e] + m->durations[e];
        }
    }
    for (size_t t = 0; t < m->num_threads; t++)
        if (m->threads[t].start_ns == INT64_MAX) m->threads[t].start_ns = m->threads[t].end_ns = 0;
    if (!several_threads) { /* the format has a thread table only with thread ids */
        for (size_t t = 0; t < m->num_threads; t++)
            free(m->threads[t].name);
        free(m->threads);
        m->threads = NULL;
        m->num_threads = 0;
    }
    m->region_names = names.names;
    m->num_regions = names.count;
    names.names = NULL;
    names.count = 0;
    st = meta(m, (const sp_journal *const *)js, n, report->open_calls, report->dropped,
              first_ns == INT64_MAX ? 0 : first_ns, last_ns == INT64_MIN ? 0 : last_ns);
done:
    for (size_t i = 0; i < names.count; i++)
        free(names.names[i]);
    free(names.names);
    free(names.index);
    free(scratch);
    if (st) sp_error_set(err, st, "recover: %s", sp_status_string(st));
    return st;
}
