/*
 * The core library's internal functions the MPI sources call, defined here
 * (hidden) as calls through the table the core hands out
 * (common/companion.h): libscope_profiler exports only its public API.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/companion.h"
#include "common/error.h"
#include <scope_profiler.h>

static const sp_companion *core;
static pthread_once_t core_once = PTHREAD_ONCE_INIT;

static void find_core(void) {
    core = sp_companion_interface(SP_COMPANION_VERSION);
    if (!core) {
        fputs("scope-profiler: libscope_profiler_mpi and libscope_profiler are from different "
              "versions; install them together\n",
              stderr);
        abort();
    }
}

static const sp_companion *c(void) {
    pthread_once(&core_once, find_core);
    return core;
}

sp_status sp_error_set(sp_error *err, sp_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sp_status st = c()->error_vset(err, status, fmt, ap);
    va_end(ap);
    return st;
}

sp_status sp_model_meta_int(sp_model *m, const char *key, int64_t value) {
    return c()->model_meta_int(m, key, value);
}

sp_status sp_model_meta_string(sp_model *m, const char *key, const char *value) {
    return c()->model_meta_string(m, key, value);
}

int64_t sp_internal_clock_now_ns(void) {
    return c()->clock_now_ns();
}

sp_session_state sp_internal_session_state(void) {
    return c()->session_state();
}

sp_status sp_internal_session_stop(uint32_t rank, sp_session_data *out) {
    return c()->session_stop(rank, out);
}

sp_status sp_internal_session_describe(sp_session_data *data, int64_t mpi_size, int64_t num_nodes) {
    return c()->session_describe(data, mpi_size, num_nodes);
}

sp_status sp_internal_session_write(sp_session_data *data, const sp_model *model) {
    return c()->session_write(data, model);
}

sp_write_options sp_internal_write_options(const sp_session_data *data) {
    return c()->write_options(data);
}

void sp_internal_session_moved(sp_session_data *data, char *path) {
    c()->session_moved(data, path);
}

char *sp_internal_fallback_path(const char *path) {
    return c()->fallback_path(path);
}

sp_status sp_internal_session_report(sp_session_data *data, sp_model *model,
                                     const sp_finalize_options *options) {
    return c()->session_report(data, model, options);
}

sp_status sp_internal_finalize_serial(const sp_finalize_options *options) {
    return c()->finalize_serial(options);
}

void sp_internal_set_finalize_hook(sp_finalize_hook hook) {
    c()->set_finalize_hook(hook);
}

sp_status sp_internal_print_summary(const sp_results *results, FILE *out) {
    return c()->print_summary(results, out);
}

void sp_internal_session_end(sp_session_data *data) {
    c()->session_end(data);
}

sp_writer *sp_writer_create(const char *path, uint64_t total_events, int has_thread_ids,
                            const sp_write_options *options, sp_error *err) {
    return c()->writer_create(path, total_events, has_thread_ids, options, err);
}

sp_status sp_writer_put_regions(sp_writer *w, char *const *names, size_t count, sp_error *err) {
    return c()->writer_put_regions(w, names, count, err);
}

sp_status sp_writer_put_metadata(sp_writer *w, const sp_meta_entry *meta, size_t count,
                                 sp_error *err) {
    return c()->writer_put_metadata(w, meta, count, err);
}

sp_status sp_writer_append(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                           const int64_t *starts, const int64_t *durations,
                           const int64_t *thread_ids, sp_error *err) {
    return c()->writer_append(w, rows, num_rows, starts, durations, thread_ids, err);
}

sp_status sp_writer_add_rows(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                             sp_error *err) {
    return c()->writer_add_rows(w, rows, num_rows, err);
}

sp_status sp_writer_add_events(sp_writer *w, const int64_t *starts, const int64_t *durations,
                               const int64_t *thread_ids, size_t n, sp_error *err) {
    return c()->writer_add_events(w, starts, durations, thread_ids, n, err);
}

sp_status sp_writer_put_threads(sp_writer *w, const sp_thread_info *threads, size_t count,
                                sp_error *err) {
    return c()->writer_put_threads(w, threads, count, err);
}

sp_status sp_writer_put_clock_offsets(sp_writer *w, const sp_clock_offset *offsets, size_t count,
                                      sp_error *err) {
    return c()->writer_put_clock_offsets(w, offsets, count, err);
}

sp_status sp_writer_put_forks(sp_writer *w, const sp_thread_fork *forks, size_t count,
                              sp_error *err) {
    return c()->writer_put_forks(w, forks, count, err);
}

sp_status sp_writer_commit(sp_writer *w, sp_error *err) {
    return c()->writer_commit(w, err);
}

void sp_writer_abort(sp_writer *w) {
    c()->writer_abort(w);
}

void sp_writer_guard_target(sp_writer *w, const sp_target_id *since, char **saved_as) {
    c()->writer_guard_target(w, since, saved_as);
}

void sp_internal_journal_set_rank(int64_t rank, int64_t size) {
    c()->journal_set_rank(rank, size);
}

unsigned char *sp_internal_agg_pack(const sp_model *m, size_t *size) {
    return c()->agg_pack(m, size);
}

sp_status sp_internal_agg_write_ranks(sp_session_data *data, const unsigned char *const *packs,
                                      const size_t *sizes, int num_ranks, char *const *names,
                                      size_t num_names, uint32_t *const *map,
                                      const size_t *map_length, int64_t num_nodes) {
    return c()->agg_write_ranks(data, packs, sizes, num_ranks, names, num_names, map, map_length,
                                num_nodes);
}

sp_status sp_internal_setup_provisional(const sp_options *options) {
    return c()->setup_provisional(options);
}

int sp_internal_session_is_provisional(void) {
    return c()->session_is_provisional();
}

void sp_internal_session_yield_provisional(void) {
    c()->session_yield_provisional();
}
