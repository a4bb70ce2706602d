#include "record/collect.h"
#include "record/region_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/clock.h"
#include "record/collect_parts.h"
#include "record/fork_point.h"
#include "record/registry.h"
#include "record/row_merge.h"
#include "record/store.h"
#include "record/thread_state.h"

static uint64_t completed_calls(const sp_thread *t, sp_region_t region) {
    if (region >= t->num_cursors) return 0;
    uint64_t n = 0;
    const sp_row_chunks *row = &t->rows[region];
    for (uint32_t c = 0; c < row->num_chunks; c++) {
        const sp_event_slot *slot = row->chunk[c];
        size_t used = sp_row_chunk_used(t, region, c);
        for (size_t i = 0; i < used; i++)
            n += slot[i].end != 0;
    }
    return n;
}

/* Stores one call in the model at index `at`: ticks converted to ns, a negative
 * span (clocks of different cores disagreeing by a tick) clamped to zero. */
static void store_call(sp_model *m, uint64_t at, uint64_t start_ticks, uint64_t end_ticks,
                       int64_t thread) {
    int64_t start = sp_clock_to_ns(start_ticks);
    int64_t end = sp_clock_to_ns(end_ticks);
    m->starts[at] = start;
    m->durations[at] = end > start ? end - start : 0;
    if (m->thread_ids) m->thread_ids[at] = thread;
}

/* The row of a region only one thread called: convert straight from its chunks
 * (already in start order) and free each chunk once read, bounding memory. */
static size_t convert_single_thread(sp_model *m, uint64_t offset, sp_thread *t, sp_region_t region,
                                    int64_t thread) {
    size_t n = 0;
    sp_row_chunks *row = &t->rows[region];
    for (uint32_t c = 0; c < row->num_chunks; c++) {
        const sp_event_slot *slot = row->chunk[c];
        size_t used = sp_row_chunk_used(t, region, c);
        for (size_t i = 0; i < used; i++) {
            if (!slot[i].end) continue;
            store_call(m, offset + n++, slot[i].start, slot[i].end, thread);
        }
        sp_store_discard(row->chunk[c], used * sizeof *slot); /* bounds finalize's memory */
    }
    return n;
}

static int compare_thread_index(const void *a, const void *b) {
    const sp_thread *x = *(sp_thread *const *)a, *y = *(sp_thread *const *)b;
    return (x->index > y->index) - (x->index < y->index);
}

sp_thread **sp_collect_threads(uint32_t num_regions, uint32_t *count) {
    size_t n = 0, max = 8;
    sp_thread **list = malloc(max * sizeof *list);
    if (!list) return NULL;
    for (sp_thread *t = sp_thread_list(); t; t = t->next) {
        int any = 0;
        for (sp_region_t r = 1; r <= num_regions && r < t->num_cursors && !any; r++)
            any = completed_calls(t, r) > 0;
        if (!any) continue;
        if (n == max) {
            sp_thread **grown = realloc(list, (max *= 2) * sizeof *list);
            if (!grown) {
                free(list);
                return NULL;
            }
            list = grown;
        }
        list[n++] = t;
    }
    qsort(list, n, sizeof *list, compare_thread_index);
    *count = (uint32_t)n;
    return list;
}

static void report_left_out(sp_collect_report *report, uint32_t num_regions) {
    /* One reading of each thread's depth gives both the count and the list. */
    char *list = NULL;
    size_t list_len = 0;
    FILE *names = open_memstream(&list, &list_len);
    const char *sep = " ";
    for (sp_thread *t = sp_thread_list(); t; t = t->next) {
        report->dropped_calls += t->dropped_calls;
        uint32_t depth = sp_thread_depth(t);
        report->open_calls += depth;
        for (uint32_t d = 0; d < depth && names; d++) {
            const char *name = sp_registry_name(t->stack[d].region);
            if (t->stack[d].region > num_regions || !name) name = "(invalid handle)";
            fprintf(names, "%s\"%s\" (thread %u, depth %u)", sep, name, t->index, d);
            sep = ", ";
        }
    }
    if (names && fclose(names) != 0) { /* the count alone */
        free(list);
        list = NULL;
    }
    if (report->open_calls)
        fprintf(stderr, "scope-profiler: %llu call(s) still open at finalize were left out:%s\n",
                (unsigned long long)report->open_calls, list ? list : "");
    free(list);
    if (report->dropped_calls)
        fprintf(stderr,
                "scope-profiler: %llu call(s) dropped by mismatched sp_end() were left out\n",
                (unsigned long long)report->dropped_calls);
}

static void report_not_stored(sp_collect_report *report, uint32_t num_regions) {
    for (sp_thread *t = sp_thread_list(); t; t = t->next)
        for (sp_region_t r = 1; r <= num_regions && r < t->num_cursors; r++)
            report->not_stored_calls += sp_row_not_stored(t, r);
    if (report->not_stored_calls)
        fprintf(stderr,
                "scope-profiler: %llu call(s) were counted but not stored (memory limit reached "
                "or out of memory)\n",
                (unsigned long long)report->not_stored_calls);
}

void sp_collect_report_losses(sp_collect_report *report, uint32_t num_handles) {
    report_left_out(report, num_handles);
    report_not_stored(report, num_handles);
}

/* Each thread's first and last activity: its earliest start and latest end
 * (a model without event columns: the caller fills them). */
static void activity_span(sp_model *m) {
    if (!m->starts) return;
    for (size_t i = 0; i < m->num_threads; i++) {
        m->threads[i].start_ns = INT64_MAX;
        m->threads[i].end_ns = INT64_MIN;
    }
    for (size_t e = 0; e < m->num_events; e++) {
        int64_t t = m->thread_ids ? m->thread_ids[e] : 0;
        if (t < 0 || (size_t)t >= m->num_threads) continue;
        sp_thread_info *info = &m->threads[t];
        if (m->starts[e] < info->start_ns) info->start_ns = m->starts[e];
        if (m->starts[e] + m->durations[e] > info->end_ns)
            info->end_ns = m->starts[e] + m->durations[e];
    }
}

sp_status sp_collect_thread_info(sp_thread_info *info, sp_thread *t, uint32_t rank, uint32_t index,
                                 int64_t owner) {
    info->rank = rank;
    info->index = index;
    info->ident = (int64_t)(uintptr_t)t->handle;
    info->native_id = t->native_id;
    info->daemon = 0;
    info->parent_slot = owner >= 0 && owner != (int64_t)index ? owner + 1 : 0;
    info->cpu_ns = t->exited ? t->exit_cpu_ns : -1;
    if (!t->exited) {
        clockid_t cpu_clock;
        struct timespec ts;
        if (pthread_getcpuclockid(t->handle, &cpu_clock) == 0 && clock_gettime(cpu_clock, &ts) == 0)
            info->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        if (!t->named) pthread_getname_np(t->handle, t->name, sizeof t->name);
    }
    info->name = sp_strdup(t->name);
    return info->name ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_status sp_collect_thread_table(sp_model *m, sp_thread **threads, uint32_t n, uint32_t rank) {
    m->threads = calloc(n, sizeof *m->threads);
    if (!m->threads) return SP_ERR_OUT_OF_MEMORY;
    m->num_threads = n;
    activity_span(m);
    int64_t owner = -1; /* the thread that started the session, if it recorded */
    for (uint32_t i = 0; i < n && owner < 0; i++)
        if (sp_thread_is_session_owner(threads[i])) owner = i;
    for (uint32_t i = 0; i < n; i++)
        if (sp_collect_thread_info(&m->threads[i], threads[i], rank, i, owner))
            return SP_ERR_OUT_OF_MEMORY;
    return n > 1 ? sp_fork_collect(m, threads, n, rank) : SP_OK;
}

sp_model_row *sp_collect_add_row(sp_model *m, sp_region_t region, uint32_t rank, uint64_t offset,
                                 uint64_t count) {
    size_t id = m->num_regions;
    sp_model_row *row = &m->rows[id];
    m->region_names[id] = sp_strdup(sp_registry_name(region));
    const char *file;
    int line;
    sp_registry_location(region, &file, &line);
    row->source_file = sp_strdup(file);
    row->source_text = sp_strdup("");
    row->tags = sp_region_tags_json(region);
    row->event_metadata = sp_strdup("[]");
    m->num_regions++;
    m->num_rows++;
    if (!m->region_names[id] || !row->source_file || !row->source_text || !row->tags ||
        !row->event_metadata)
        return NULL;
    row->region = (uint32_t)id;
    row->rank = rank;
    row->offset = offset;
    row->count = count;
    row->source_line = line > 0 ? line : -1;
    row->exclusive_total = -1;
    return row;
}

sp_status sp_collect(sp_model *m, uint32_t rank, sp_collect_report *report) {
    memset(report, 0, sizeof *report);
    uint32_t num_handles = sp_registry_count();
    sp_collect_report_losses(report, num_handles);

    uint32_t num_threads = 0;
    sp_thread **threads = sp_collect_threads(num_handles, &num_threads);
    if (!threads) return SP_ERR_OUT_OF_MEMORY;
    report->threads = num_threads;

    /* Per handle: completed calls over all threads. */
    uint64_t *calls_of = calloc((size_t)num_handles + 1, sizeof *calls_of);
    if (!calls_of) {
        free(threads);
        return SP_ERR_OUT_OF_MEMORY;
    }
    /* Per handle: the one thread that called it, or -1 for several. */
    int64_t *only_thread = malloc(((size_t)num_handles + 1) * sizeof *only_thread);
    if (!only_thread) {
        free(calls_of);
        free(threads);
        return SP_ERR_OUT_OF_MEMORY;
    }
    uint64_t total = 0;
    size_t num_rows = 0;
    for (sp_region_t r = 1; r <= num_handles; r++) {
        only_thread[r] = -2; /* no thread yet */
        for (uint32_t i = 0; i < num_threads; i++) {
            uint64_t n = completed_calls(threads[i], r);
            if (!n) continue;
            calls_of[r] += n;
            only_thread[r] = only_thread[r] == -2 ? (int64_t)i : -1;
        }
        total += calls_of[r];
        num_rows += calls_of[r] > 0;
    }
    report->calls = total;

    sp_status st = SP_ERR_OUT_OF_MEMORY;
    sp_row_merge *merge = NULL;
    m->region_names = calloc(num_rows ? num_rows : 1, sizeof *m->region_names);
    m->rows = calloc(num_rows ? num_rows : 1, sizeof *m->rows);
    m->starts = malloc((total ? total : 1) * sizeof *m->starts);
    m->durations = malloc((total ? total : 1) * sizeof *m->durations);
    if (num_threads > 1) m->thread_ids = malloc((total ? total : 1) * sizeof *m->thread_ids);
    merge = sp_row_merge_new(num_threads); /* rows of several threads: no scratch copy */
    if (!m->region_names || !m->rows || !m->starts || !m->durations || !merge ||
        (num_threads > 1 && !m->thread_ids))
        goto done;
    m->num_events = total;
    report->given_back = 1;

    uint64_t offset = 0;
    for (sp_region_t r = 1; r <= num_handles; r++) {
        if (!calls_of[r]) continue;
        size_t n = 0;
        if (only_thread[r] >= 0) {
            n = convert_single_thread(m, offset, threads[only_thread[r]], r, only_thread[r]);
        } else {
            sp_row_merge_start(merge, threads, num_threads, r, 1);
            n = sp_row_merge_next(merge, m->starts + offset, m->durations + offset,
                                  m->thread_ids ? m->thread_ids + offset : NULL, calls_of[r]);
        }

        sp_model_row *row = sp_collect_add_row(m, r, rank, offset, n);
        if (!row) goto done;
        sp_row_stats_compute(&row->stats, m->starts + offset, m->durations + offset, n);
        row->has_stats = 1;
        offset += n;
    }
    /* The table is always filled; writers store it only with thread ids (several threads). */
    st = num_threads ? sp_collect_thread_table(m, threads, num_threads, rank) : SP_OK;
done:
    sp_row_merge_free(merge);
    free(only_thread);
    free(calls_of);
    free(threads);
    return st;
}
