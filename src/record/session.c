#include "record/session.h"

#include <libgen.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "model/results_model.h"
#include "format/write_aggregate.h"
#include "format/writer.h"
#include "record/aggregate.h"
#include "record/fork_point.h"
#include "record/hot_path.h"
#include "record/clock.h"
#include "record/collect_stream.h"
#include "record/metadata.h"
#include "record/mismatch.h"
#include "record/quiesce.h"
#include "record/output_path.h"
#include "record/session_root.h"
#include "record/source_paths.h"
#include "record/store.h"
#include "record/endings.h"
#include "record/finalize_reserve.h"
#include "record/journal_layout.h"
#include "record/thread_state.h"

extern int sp_internal_active_;

static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;
static sp_session_state state;
static sp_config config;
static int64_t start_ns;
static char *last_output_path;
static sp_target_id target_at_setup;
static sp_finalize_hook finalize_hook;
static int provisional;            /* started by the preload library (scope-profiler run) */
static void (*before_finalize)(void); /* the preload's names, before any finalize collects */

static sp_status session_halt(sp_session_data *out);

/* A program on the serial library that a launcher started as several
 * processes: each process writes its own file, its rank in the name. */
static void warn_per_process(const sp_launcher *l, const char *path) {
    static int warned;
    if (warned || l->rank > 0) return; /* once, from the first process */
    warned = 1;
    fprintf(stderr,
            "scope-profiler: %s says this is one of %ld processes, but the program uses the "
            "serial library: each process writes its own file (%s for rank 0); join them with "
            "scope-profiler merge, or link libscope_profiler_mpi and call sp_mpi_setup() for "
            "one file\n",
            l->variable, l->size, path);
}

/* Expands the output name and applies the launcher's ranks (serial library only). */
static sp_status resolve_output(sp_config *cfg) {
    sp_launcher l;
    sp_launcher_detect(&l);
    int serial = __atomic_load_n(&finalize_hook, __ATOMIC_ACQUIRE) == NULL;
    int per_process = serial && (l.size > 1 || l.rank > 0);
    size_t n = strlen(cfg->file_path);
    int names_directory = n && cfg->file_path[n - 1] == '/'; /* "runs/": create it */
    char *path = sp_output_path_resolve(cfg->file_path, &l, per_process);
    if (!path) return SP_ERR_OUT_OF_MEMORY;
    free(cfg->file_path);
    cfg->file_path = path;
    cfg->launcher_rank = per_process ? l.rank : -1;
    if (per_process && !cfg->disable) warn_per_process(&l, path);
    char failed[512];
    int e = cfg->disable || !names_directory
                ? 0
                : sp_output_path_make_parents(path, failed, sizeof failed);
    if (e)
        fprintf(stderr,
                "scope-profiler: cannot create the directory %s for the profile %s (%s): create "
                "it or set SCOPE_PROFILER_OUTPUT to a writable place\n",
                failed, path, strerror(e));
    return SP_OK;
}

sp_session_state sp_internal_session_state(void) {
    pthread_mutex_lock(&session_lock);
    sp_session_state s = state;
    pthread_mutex_unlock(&session_lock);
    return s;
}

sp_status sp_setup(const sp_options *options) {
    sp_internal_session_yield_provisional(); /* the program's own session wins */
    pthread_mutex_lock(&session_lock);
    sp_status st = SP_OK;
    if (state != SP_SESSION_NONE) {
        st = SP_ERR_ALREADY_ACTIVE;
    } else if ((st = sp_config_load(&config, options)) == SP_OK &&
               (st = resolve_output(&config)) != SP_OK) {
        sp_config_clear(&config);
    } else if (st == SP_OK) {
        free(last_output_path);
        last_output_path = strdup(config.file_path);
        sp_target_id_take(config.file_path, &target_at_setup);
        sp_mismatch_reset();
        sp_quiesce_prepare();
        sp_quiesce_take_dropped();
        if (config.disable) {
            state = SP_SESSION_DISABLED;
        } else {
            sp_finalize_reserve_take();
            sp_clock_start(config.clock);
            if (config.aggregate)
                sp_agg_session_start(&config); /* no per-call store, so no journal */
            else
                sp_store_open(&config);
            sp_endings_install(sp_store_is_journal());
            sp_thread_note_session_owner();
            start_ns = sp_internal_clock_now_ns();
            state = SP_SESSION_RECORDING;
            __atomic_store_n(&sp_internal_active_, sp_hot_path_active_value(config.aggregate),
                             __ATOMIC_RELEASE);
            if (!config.no_session_root) sp_session_root_open();
        }
        provisional = 0;
    }
    pthread_mutex_unlock(&session_lock);
    return st;
}

sp_status sp_internal_setup_provisional(const sp_options *options) {
    sp_status st = sp_setup(options);
    if (st == SP_OK) {
        pthread_mutex_lock(&session_lock);
        provisional = state != SP_SESSION_NONE;
        pthread_mutex_unlock(&session_lock);
    }
    return st;
}

int sp_internal_session_is_provisional(void) {
    pthread_mutex_lock(&session_lock);
    int p = provisional && state != SP_SESSION_NONE;
    pthread_mutex_unlock(&session_lock);
    return p;
}

/* Drops the preload's session unwritten (its journal too): the program's
 * sp_setup() decides where and how its profile is recorded. */
void sp_internal_session_yield_provisional(void) {
    if (!sp_internal_session_is_provisional()) return;
    sp_session_data data;
    if (session_halt(&data) != SP_OK) return; /* another thread is finalizing it */
    sp_internal_session_end(&data);
}

void sp_internal_set_before_finalize(void (*hook)(void)) {
    __atomic_store_n(&before_finalize, hook, __ATOMIC_RELEASE);
}

int sp_is_active(void) {
    return __atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED);
}

const char *sp_output_path(void) {
    return last_output_path;
}

/* Stops the session (or finds it disabled) without collecting the calls. */
static sp_status session_halt(sp_session_data *out) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&session_lock);
    if (state == SP_SESSION_DISABLED) {
        state = SP_SESSION_FINALIZING;
        out->disabled = 1;
        pthread_mutex_unlock(&session_lock);
        return SP_OK;
    }
    if (state != SP_SESSION_RECORDING) {
        pthread_mutex_unlock(&session_lock);
        return SP_ERR_NOT_ACTIVE;
    }
    state = SP_SESSION_FINALIZING;
    sp_session_root_close();
    __atomic_store_n(&sp_internal_active_, 0, __ATOMIC_RELEASE);
    out->finalize_ns = sp_internal_clock_now_ns();
    out->start_ns = start_ns;
    out->target = target_at_setup;
    out->config = config; /* moves the strings */
    memset(&config, 0, sizeof config);
    pthread_mutex_unlock(&session_lock);

    sp_quiesce_wait(); /* no thread is inside a recording call from here on */
    sp_finalize_reserve_release(); /* finalize's own allocations fit even under ulimit -v */
    sp_clock_stop();
    uint64_t racing = sp_quiesce_take_dropped();
    if (racing)
        fprintf(stderr,
                "scope-profiler: %llu call(s) began on other threads while sp_finalize() was "
                "stopping the session; they are not recorded\n",
                (unsigned long long)racing);
    return SP_OK;
}

sp_status sp_internal_session_stop(uint32_t rank, sp_session_data *out) {
    sp_status st = session_halt(out);
    if (st || out->disabled) return st;
    st = out->config.aggregate ? sp_agg_collect(&out->model, rank, &out->report)
                               : sp_collect(&out->model, rank, &out->report);
    if (st) sp_internal_session_keep_journal(out);
    return st;
}

sp_status sp_internal_session_describe(sp_session_data *data, int64_t mpi_size, int64_t num_nodes) {
    sp_metadata_input in = {
        .detail = data->config.metadata_detail,
        .label = data->config.label,
        .mpi_size = mpi_size,
        .num_nodes = num_nodes,
        .start_time_ns = data->start_ns,
        .finalize_time_ns = data->finalize_ns,
        .mpi_rank = data->config.launcher_rank,
    };
    sp_status st = sp_metadata_collect(&data->model, &in);
    return st ? st : sp_source_paths_apply(&data->model, &data->config);
}

/* ${TMPDIR:-/tmp}/<name>.<pid>.h5, where the data goes when the target fails. */
char *sp_internal_fallback_path(const char *path) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char *copy = strdup(path);
    if (!copy) return NULL;
    char *base = basename(copy);
    char *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = '\0';
    size_t n = strlen(dir) + strlen(base) + 48;
    char *result = malloc(n);
    if (result) snprintf(result, n, "%s/%s.%ld.h5", dir, base, (long)getpid());
    free(copy);
    return result;
}

sp_write_options sp_internal_write_options(const sp_session_data *data) {
    sp_write_options wo = {data->config.compression, data->config.compression_level};
    return wo;
}

void sp_internal_session_moved(sp_session_data *data, char *path) {
    if (!path) return;
    free(data->config.file_path);
    data->config.file_path = path;
    pthread_mutex_lock(&session_lock);
    free(last_output_path);
    last_output_path = strdup(path);
    pthread_mutex_unlock(&session_lock);
}

/* Writes the profile to `path` (the model's events, or the chunks'). */
typedef sp_status (*profile_writer)(void *ctx, const char *path, const sp_write_options *wo,
                                    const sp_target_id *since, char **saved_as, sp_error *err);

static sp_status write_model_to(void *ctx, const char *path, const sp_write_options *wo,
                                const sp_target_id *since, char **saved_as, sp_error *err) {
    const sp_model *model = ctx;
    if (model->layout == SP_LAYOUT_AGGREGATE)
        return sp_write_aggregate_model_guarded(model, path, since, saved_as, err);
    return sp_write_model_guarded(model, path, wo, since, saved_as, err);
}

typedef struct streamed {
    sp_collect_stream *stream;
    sp_model *model;
} streamed;

static sp_status write_stream_to(void *ctx, const char *path, const sp_write_options *wo,
                                 const sp_target_id *since, char **saved_as, sp_error *err) {
    streamed *s = ctx;
    return sp_collect_stream_write(s->stream, s->model, path, wo, since, saved_as, err);
}

/* No profile could be written: the journal stays, and the user is told how
 * to turn it into one (every failed finalize, whatever failed). */
void sp_internal_session_keep_journal(sp_session_data *data) {
    if (data->keep_journal) return;
    data->keep_journal = 1;
    sp_store_keep_journal(SP_ENDING_WRITE_FAILED, "");
}

/* The write, when there is memory enough to enter libhdf5 (which would crash). */
static sp_status guarded_write(profile_writer write, void *ctx, const char *path,
                               const sp_write_options *wo, const sp_target_id *since,
                               char **saved_as, sp_error *err) {
    if (!sp_finalize_headroom(0))
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY,
                            "cannot write %s: less than %u MiB of memory is left for libhdf5", path,
                            SP_FINALIZE_HEADROOM_MB);
    return write(ctx, path, wo, since, saved_as, err);
}

/* The target, else the fallback in $TMPDIR (out of memory too: the failed
 * attempt has given its memory back), else the journal is kept. */
static sp_status write_with_fallback(sp_session_data *data, profile_writer write, void *ctx) {
    char *saved_as = NULL;
    sp_write_options wo = sp_internal_write_options(data);
    sp_error err = {SP_OK, ""};
    sp_status st =
        guarded_write(write, ctx, data->config.file_path, &wo, &data->target, &saved_as, &err);
    if (st == SP_OK) {
        sp_internal_session_moved(data, saved_as);
        return SP_OK;
    }
    fprintf(stderr, "scope-profiler: %s\n", err.message);
    char *fallback = sp_internal_fallback_path(data->config.file_path);
    sp_error err2 = {SP_OK, ""};
    if (fallback && strcmp(fallback, data->config.file_path) != 0 &&
        guarded_write(write, ctx, fallback, &wo, NULL, NULL, &err2) == SP_OK) {
        fprintf(stderr, "scope-profiler: the profile was saved to %s instead\n", fallback);
    } else {
        fprintf(stderr, "scope-profiler: no profile was written; the fallback failed too: %s\n",
                err2.message[0] ? err2.message : "out of memory");
        sp_internal_session_keep_journal(data);
    }
    free(fallback);
    return st;
}

sp_status sp_internal_session_write(sp_session_data *data, const sp_model *model) {
    return write_with_fallback(data, write_model_to, (void *)model);
}

/* Hook for the end-of-run table (set by the analysis layer when linked). */
sp_status sp_internal_print_run_summary(const sp_results *results, FILE *out);

sp_status sp_internal_print_summary(const sp_results *results, FILE *out) {
    return sp_internal_print_run_summary(results, out);
}

sp_status sp_internal_session_report(sp_session_data *data, sp_model *model,
                                     const sp_finalize_options *options) {
    int quiet = data->config.quiet || (options && options->quiet);
    int want_results = options && options->results;
    if (options && options->results) *options->results = NULL;
    if (quiet && !want_results) return SP_OK;
    sp_error err = {SP_OK, ""};
    free(model->path); /* the results describe the file just written */
    model->path = sp_strdup(data->config.file_path);
    sp_results *results = sp_results_adopt(model, &err);
    if (!results) {
        fprintf(stderr, "scope-profiler: %s\n", err.message);
        return err.status;
    }
    if (!quiet) {
        FILE *out = options && options->stream ? options->stream : stdout;
        sp_internal_print_run_summary(results, out);
    }
    if (want_results)
        *options->results = results;
    else
        sp_results_free(results);
    return SP_OK;
}

void sp_internal_session_end(sp_session_data *data) {
    sp_finalize_reserve_release();
    sp_model_clear(&data->model);
    sp_config_clear(&data->config);
    sp_endings_uninstall();
    sp_thread_reset_all();
    sp_fork_reset();
    sp_agg_reset_all();
    sp_store_close(data->keep_journal);
    pthread_mutex_lock(&session_lock);
    sp_config_clear(&config);
    state = SP_SESSION_NONE;
    provisional = 0;
    pthread_mutex_unlock(&session_lock);
}

int sp_internal_has_finalize_hook(void) {
    return __atomic_load_n(&finalize_hook, __ATOMIC_ACQUIRE) != NULL;
}

void sp_internal_journal_set_rank(int64_t rank, int64_t size) {
    sp_store_set_rank(rank, size);
}

void sp_internal_session_lock_for_fork(void) {
    pthread_mutex_lock(&session_lock);
}

void sp_internal_session_unlock_after_fork(void) {
    pthread_mutex_unlock(&session_lock);
}

void sp_internal_session_forget_after_fork(void) {
    __atomic_store_n(&sp_internal_active_, 0, __ATOMIC_RELEASE);
    sp_agg_forget_after_fork();
    sp_fork_forget_after_fork();
    state = SP_SESSION_NONE;
    sp_config_clear(&config);
}

void sp_internal_set_finalize_hook(sp_finalize_hook hook) {
    __atomic_store_n(&finalize_hook, hook, __ATOMIC_RELEASE);
}

sp_status sp_finalize(const sp_finalize_options *options) {
    void (*names)(void) = __atomic_load_n(&before_finalize, __ATOMIC_ACQUIRE);
    if (names && sp_internal_session_state() == SP_SESSION_RECORDING) names();
    sp_finalize_hook hook = __atomic_load_n(&finalize_hook, __ATOMIC_ACQUIRE);
    return hook ? hook(options) : sp_internal_finalize_serial(options);
}

/* Whether finalize hands events on (the table, or the results): then the
 * calls are converted into the model's columns, which the results adopt. */
static int wants_results(const sp_session_data *data, const sp_finalize_options *options) {
    int quiet = data->config.quiet || (options && options->quiet);
    return !quiet || (options && options->results);
}

/* The model, or the model without its event columns and the chunks to write
 * them from (*stream): without a table, or when memory for the table's
 * columns runs out, finalize needs no more than the recording and a bounded
 * buffer. *no_summary: the table was wanted but cannot be had. */
static sp_status collect_for_finalize(sp_session_data *data, const sp_finalize_options *options,
                                      sp_collect_stream **stream, int *no_summary) {
    *stream = NULL;
    *no_summary = 0;
    if (data->config.aggregate) return sp_agg_collect(&data->model, 0, &data->report);
    /* the table's columns take 24 bytes a call where the chunks hold 16: only
     * with room for them and for libhdf5 after them (memory mode frees the chunks) */
    uint64_t columns = sp_store_bytes() / 2 * 3;
    int tried = 0; /* sp_collect ran, and counted the losses */
    if (wants_results(data, options) && columns < SIZE_MAX && sp_finalize_headroom(columns)) {
        tried = 1;
        sp_status st = sp_collect(&data->model, 0, &data->report);
        if (st != SP_ERR_OUT_OF_MEMORY || data->report.given_back) return st;
        sp_model_clear(&data->model);
    }
    if (wants_results(data, options)) {
        *no_summary = 1;
        fprintf(stderr, "scope-profiler: not enough memory for the summary at finalize: the "
                        "profile is written without it (scope-profiler inspect FILE shows it)\n");
    }
    return sp_collect_skeleton(&data->model, 0, &data->report, !tried, stream);
}

sp_status sp_internal_finalize_serial(const sp_finalize_options *options) {
    if (options && options->results) *options->results = NULL;
    sp_session_data data;
    sp_status st = session_halt(&data);
    if (st == SP_ERR_NOT_ACTIVE) return st; /* none, or another thread's finalize won */
    if (data.disabled) {
        sp_internal_session_end(&data);
        return SP_OK;
    }
    sp_collect_stream *stream = NULL;
    int no_summary = 0;
    st = collect_for_finalize(&data, options, &stream, &no_summary);
    if (!st) st = sp_internal_session_describe(&data, 1, 1);
    streamed ctx = {stream, &data.model};
    if (!st && stream)
        st = write_with_fallback(&data, write_stream_to, &ctx);
    else if (!st)
        st = sp_internal_session_write(&data, &data.model);
    else {
        fprintf(stderr, "scope-profiler: cannot finalize: %s\n", sp_status_string(st));
        sp_internal_session_keep_journal(&data);
    }
    if (!st && !stream) st = sp_internal_session_report(&data, &data.model, options);
    /* the file is written, but the results asked for cannot be had */
    if (!st && no_summary && options && options->results) st = SP_ERR_OUT_OF_MEMORY;
    sp_collect_stream_free(stream);
    sp_internal_session_end(&data);
    return st;
}
