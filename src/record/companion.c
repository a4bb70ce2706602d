/* The table of internal entry points for libscope_profiler_mpi (common/companion.h). */
#include "common/companion.h"

#include "common/error.h"
#include "record/registry.h"

static const sp_companion table = {
    .error_vset = sp_error_vset,
    .model_meta_int = sp_model_meta_int,
    .model_meta_string = sp_model_meta_string,
    .clock_now_ns = sp_internal_clock_now_ns,
    .session_state = sp_internal_session_state,
    .session_stop = sp_internal_session_stop,
    .session_describe = sp_internal_session_describe,
    .session_write = sp_internal_session_write,
    .write_options = sp_internal_write_options,
    .session_moved = sp_internal_session_moved,
    .fallback_path = sp_internal_fallback_path,
    .session_report = sp_internal_session_report,
    .finalize_serial = sp_internal_finalize_serial,
    .set_finalize_hook = sp_internal_set_finalize_hook,
    .print_summary = sp_internal_print_summary,
    .session_end = sp_internal_session_end,
    .writer_create = sp_writer_create,
    .writer_put_regions = sp_writer_put_regions,
    .writer_put_metadata = sp_writer_put_metadata,
    .writer_append = sp_writer_append,
    .writer_add_rows = sp_writer_add_rows,
    .writer_add_events = sp_writer_add_events,
    .writer_put_threads = sp_writer_put_threads,
    .writer_put_clock_offsets = sp_writer_put_clock_offsets,
    .writer_commit = sp_writer_commit,
    .writer_abort = sp_writer_abort,
    .writer_guard_target = sp_writer_guard_target,
    .journal_set_rank = sp_internal_journal_set_rank,
    .agg_pack = sp_internal_agg_pack,
    .agg_write_ranks = sp_internal_agg_write_ranks,
    .clock_test_source = sp_internal_clock_test_source,
    .setup_provisional = sp_internal_setup_provisional,
    .session_is_provisional = sp_internal_session_is_provisional,
    .session_yield_provisional = sp_internal_session_yield_provisional,
    .set_before_finalize = sp_internal_set_before_finalize,
    .region_rename = sp_registry_rename,
    .fork_take_origin = sp_fork_take_origin,
    .fork_note_start = sp_fork_note_start,
    .writer_put_forks = sp_writer_put_forks,
};

const void *sp_companion_interface(unsigned version) {
    return version == SP_COMPANION_VERSION ? &table : NULL;
}
