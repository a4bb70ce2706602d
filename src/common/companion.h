/*
 * The core library's internal entry points that libscope_profiler_mpi (a
 * separate shared object) calls. Only the public API is exported from
 * libscope_profiler; these are reached through one table, which
 * sp_companion_interface() (declared in scope_profiler.h) hands out.
 * src/mpi/companion_calls.c defines functions of the same names in the MPI
 * library that call through the table, so the MPI sources call them as
 * usual. Change the table only together with SP_COMPANION_VERSION.
 */
#ifndef SP_COMMON_COMPANION_H
#define SP_COMMON_COMPANION_H

#include <stdarg.h>

#include "format/writer.h"
#include "record/aggregate_ranks.h"
#include "record/clock.h"
#include "record/fork_point.h"
#include "record/session.h"

#define SP_COMPANION_VERSION 6u

typedef struct sp_companion {
    sp_status (*error_vset)(sp_error *err, sp_status status, const char *fmt, va_list ap);
    sp_status (*model_meta_int)(sp_model *m, const char *key, int64_t value);
    int64_t (*clock_now_ns)(void);
    sp_session_state (*session_state)(void);
    sp_status (*session_stop)(uint32_t rank, sp_session_data *out);
    sp_status (*session_describe)(sp_session_data *data, int64_t mpi_size, int64_t num_nodes);
    sp_status (*session_write)(sp_session_data *data, const sp_model *model);
    sp_write_options (*write_options)(const sp_session_data *data);
    void (*session_moved)(sp_session_data *data, char *path);
    char *(*fallback_path)(const char *path);
    sp_status (*session_report)(sp_session_data *data, sp_model *model,
                                const sp_finalize_options *options);
    sp_status (*finalize_serial)(const sp_finalize_options *options);
    void (*set_finalize_hook)(sp_finalize_hook hook);
    sp_status (*print_summary)(const sp_results *results, FILE *out);
    void (*session_end)(sp_session_data *data);
    sp_writer *(*writer_create)(const char *path, uint64_t total_events, int has_thread_ids,
                                const sp_write_options *options, sp_error *err);
    sp_status (*writer_put_regions)(sp_writer *w, char *const *names, size_t count, sp_error *err);
    sp_status (*writer_put_metadata)(sp_writer *w, const sp_meta_entry *meta, size_t count,
                                     sp_error *err);
    sp_status (*writer_append)(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                               const int64_t *starts, const int64_t *durations,
                               const int64_t *thread_ids, sp_error *err);
    sp_status (*writer_add_rows)(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                                 sp_error *err);
    sp_status (*writer_add_events)(sp_writer *w, const int64_t *starts, const int64_t *durations,
                                   const int64_t *thread_ids, size_t n, sp_error *err);
    sp_status (*writer_put_threads)(sp_writer *w, const sp_thread_info *threads, size_t count,
                                    sp_error *err);
    sp_status (*writer_put_clock_offsets)(sp_writer *w, const sp_clock_offset *offsets,
                                          size_t count, sp_error *err);
    sp_status (*writer_commit)(sp_writer *w, sp_error *err);
    void (*writer_abort)(sp_writer *w);
    void (*writer_guard_target)(sp_writer *w, const sp_target_id *since, char **saved_as);
    void (*journal_set_rank)(int64_t rank, int64_t size);
    /* version 2: aggregate mode (issue 17) */
    unsigned char *(*agg_pack)(const sp_model *m, size_t *size);
    sp_status (*agg_write_ranks)(sp_session_data *data, const unsigned char *const *packs,
                                 const size_t *sizes, int num_ranks, char *const *names,
                                 size_t num_names, uint32_t *const *map, const size_t *map_length,
                                 int64_t num_nodes);
    void (*clock_test_source)(uint64_t (*source)(void)); /* tests: exact durations */
    /* version 3: /metadata mpi_writer (issue 17) */
    sp_status (*model_meta_string)(sp_model *m, const char *key, const char *value);
    /* version 4: scope-profiler run (issue 24, src/preload/) */
    sp_status (*setup_provisional)(const sp_options *options);
    int (*session_is_provisional)(void);
    void (*session_yield_provisional)(void);
    void (*set_before_finalize)(void (*hook)(void));
    sp_status (*region_rename)(sp_region_t region, const char *name);
    /* version 5: OpenMP through OMPT (issue 24, src/preload/ompt_tool.c) */
    int (*fork_take_origin)(sp_fork_origin *origin);
    void (*fork_note_start)(const sp_fork_origin *origin);
    /* version 6: the ranks' fork points through the stream writer (issue 30) */
    sp_status (*writer_put_forks)(sp_writer *w, const sp_thread_fork *forks, size_t count,
                                  sp_error *err);
} sp_companion;

#endif
