/*
 * The MPI session: sp_mpi_setup() and the collective sp_finalize().
 *
 * Finalize, in order: every rank stops recording and collects its calls;
 * the ranks make sure all of them arrived (with a deadline, so that a rank
 * that never comes cannot hang the others: they then save per-rank files);
 * rank 0 measures the clock offsets, gathers host names and region names,
 * creates the file and appends each rank's rows and calls in rank order;
 * everybody learns the outcome; if the shared file could not be written,
 * every rank saves its own calls to a per-rank file, so nothing is lost.
 */
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/run_options.h"
#include "model/results_model.h"
#include "common/error.h"
#include "format/writer.h"
#include "mpi/aggregate_gather.h"
#include "mpi/arrival.h"
#include "mpi/clock_sync.h"
#include "mpi/deadline.h"
#include "mpi/mpi_calls.h"
#include "mpi/parallel_writer.h"
#include "mpi/peer_writer.h"
#include "mpi/rank_file.h"
#include "mpi/rank_stream.h"
#include "mpi/region_union.h"
#include "mpi/writer_choice.h"
#include "record/session.h"

/* The profiling communicator and the offsets measured at setup (rank 0). */
static MPI_Comm profiling_comm = MPI_COMM_NULL;
static int64_t *setup_offsets, *setup_uncertainty;
static int setup_size;

static int mpi_running(void) {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}

static MPI_Comm session_comm(void) {
    return profiling_comm != MPI_COMM_NULL ? profiling_comm : MPI_COMM_WORLD;
}

int sp_mpi_rank(void) {
    int rank = 0;
    if (mpi_running()) MPI_Comm_rank(session_comm(), &rank);
    return rank;
}

static void forget_setup_offsets(void) {
    free(setup_offsets);
    free(setup_uncertainty);
    setup_offsets = setup_uncertainty = NULL;
    setup_size = 0;
}

/* sp_mpi_setup(), or (provisional) scope-profiler run's session from MPI_Init. */
static sp_status mpi_setup(const sp_options *options, MPI_Comm comm, int provisional) {
    if (!mpi_running()) {
        fprintf(stderr, "scope-profiler: sp_mpi_setup() needs MPI to be initialized (call "
                        "MPI_Init first)\n");
        return SP_ERR_MPI;
    }
    sp_internal_session_yield_provisional(); /* the program's own session wins */
    if (sp_internal_session_state() != SP_SESSION_NONE) return SP_ERR_ALREADY_ACTIVE;
    sp_mpi_arrival_settle(); /* a check left pending on the old communicator */
    if (profiling_comm != MPI_COMM_NULL) MPI_Comm_free(&profiling_comm);
    if (MPI_Comm_dup(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, &profiling_comm) != MPI_SUCCESS)
        return SP_ERR_MPI;
    sp_status st = provisional ? sp_internal_setup_provisional(options) : sp_setup(options);
    if (st) return st;
    int rank, size;
    MPI_Comm_rank(profiling_comm, &rank);
    MPI_Comm_size(profiling_comm, &size);
    sp_internal_journal_set_rank(rank, size);
    forget_setup_offsets();
    if (rank == 0) {
        setup_offsets = calloc((size_t)size, sizeof *setup_offsets);
        setup_uncertainty = calloc((size_t)size, sizeof *setup_uncertainty);
    }
    int ok = rank != 0 || (setup_offsets && setup_uncertainty);
    /* the alignment at setup is optional: without it finalize's estimate is used alone */
    if (sp_mpi_clock_sync(profiling_comm, rank, size, setup_offsets, setup_uncertainty) ==
            MPI_SUCCESS &&
        ok)
        setup_size = size;
    sp_mpi_writer_remember(options);
    sp_mpi_calls_start(options); /* after our own traffic: it is not the program's */
    return SP_OK;
}

sp_status sp_mpi_setup(const sp_options *options, MPI_Comm comm) {
    return mpi_setup(options, comm, 0);
}

/* scope-profiler run (src/preload/) names the process it profiles in
 * SCOPE_PROFILER_RUN_PID; its session in an MPI program frames MPI_Init to
 * MPI_Finalize, as sp_mpi_setup() does. */
void sp_mpi_run_attach(void) {
    const char *pid = getenv("SCOPE_PROFILER_RUN_PID");
    if (!pid || strtol(pid, NULL, 10) != (long)getpid()) return;
    if (sp_internal_session_state() != SP_SESSION_NONE) return;
    int quiet;
    sp_options options = sp_run_options(&quiet);
    sp_status st = mpi_setup(&options, MPI_COMM_WORLD, 1);
    if (st)
        fprintf(stderr, "scope-profiler: run: cannot start profiling at MPI_Init: %s\n",
                sp_status_string(st));
}

/* Offsets at finalize, averaged with setup's when both exist: the clocks may
 * drift apart over a long run; their disagreement widens the uncertainty. */
static sp_clock_offset *clock_offsets(MPI_Comm comm, int rank, int size) {
    int64_t *offset = NULL, *uncertainty = NULL;
    sp_clock_offset *out = NULL;
    if (rank == 0) {
        offset = calloc((size_t)size, sizeof *offset);
        uncertainty = calloc((size_t)size, sizeof *uncertainty);
        out = calloc((size_t)size, sizeof *out);
    }
    int rc = sp_mpi_clock_sync(comm, rank, size, offset, uncertainty);
    if (rank == 0 && rc == MPI_SUCCESS && offset && uncertainty && out) {
        for (int r = 0; r < size; r++) {
            out[r].rank = (uint32_t)r;
            out[r].offset_ns = offset[r];
            out[r].uncertainty_ns = uncertainty[r];
            if (setup_size == size && r > 0) {
                int64_t a = setup_offsets[r], b = offset[r];
                int64_t u =
                    setup_uncertainty[r] > uncertainty[r] ? setup_uncertainty[r] : uncertainty[r];
                out[r].offset_ns = a + (b - a) / 2;
                out[r].uncertainty_ns = u + (b > a ? b - a : a - b) / 2;
            }
        }
    } else {
        free(out);
        out = NULL;
    }
    free(offset);
    free(uncertainty);
    return out;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(a, b);
}

/* Distinct host names over the ranks (rank 0 only; others get 0). */
static int64_t count_nodes(MPI_Comm comm, int rank, int size) {
    char mine[MPI_MAX_PROCESSOR_NAME] = "";
    int length = 0;
    MPI_Get_processor_name(mine, &length);
    char *all = rank == 0 ? calloc((size_t)size, MPI_MAX_PROCESSOR_NAME) : NULL;
    int rc = MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                        MPI_CHAR, 0, comm);
    if (rank != 0) return 0;
    if (!all || rc != MPI_SUCCESS) {
        free(all);
        return 1;
    }
    qsort(all, (size_t)size, MPI_MAX_PROCESSOR_NAME, compare_names);
    int64_t nodes = size > 0;
    for (int r = 1; r < size; r++)
        nodes += strcmp(all + (size_t)r * MPI_MAX_PROCESSOR_NAME,
                        all + (size_t)(r - 1) * MPI_MAX_PROCESSOR_NAME) != 0;
    free(all);
    return nodes;
}

/* Rank 0: creates the file (or, failing that, a fallback in $TMPDIR, and then
 * *target_status keeps why the target failed: finalize returns it). */
static sp_writer *create_writer(sp_session_data *data, uint64_t total, int threads,
                                sp_status *target_status, char **saved_as, sp_error *err) {
    sp_write_options wo = sp_internal_write_options(data);
    sp_writer *w = sp_writer_create(data->config.file_path, total, threads, &wo, err);
    if (w) {
        sp_writer_guard_target(w, &data->target, saved_as);
        return w;
    }
    *target_status = err->status;
    fprintf(stderr, "scope-profiler: %s\n", err->message);
    char *fallback = sp_internal_fallback_path(data->config.file_path);
    sp_error err2 = {SP_OK, ""};
    if (fallback) w = sp_writer_create(fallback, total, threads, &wo, &err2);
    if (w) fprintf(stderr, "scope-profiler: the profile is saved to %s instead\n", fallback);
    free(fallback);
    return w;
}

/* Rank 0's part once everyone is present: the whole file (the metadata is
 * added unless the parallel writer did before it gave up). */
static sp_status write_shared_file(MPI_Comm comm, int size, sp_session_data *data,
                                   const sp_region_union *u, uint64_t total, int threads,
                                   int64_t num_nodes, sp_clock_offset *offsets, int described,
                                   sp_status *target_status, sp_error *err) {
    sp_status st = described ? SP_OK : sp_internal_session_describe(data, size, num_nodes);
    if (!st) st = sp_model_meta_string(&data->model, "mpi_writer", "stream");
    char *saved_as = NULL;
    sp_writer *w = st ? NULL : create_writer(data, total, threads, target_status, &saved_as, err);
    int go = w != NULL;
    MPI_Bcast(&go, 1, MPI_INT, 0, comm);
    if (!w) return st ? st : err->status;
    st = sp_writer_put_regions(w, u->names, u->num_names, err);
    if (!st) st = sp_writer_put_metadata(w, data->model.meta, data->model.num_meta, err);
    for (int r = 0; r < size; r++) {
        /* after an error keep draining the ranks, so that none is left blocked */
        sp_error drained;
        sp_status rs = sp_mpi_receive_rank(comm, r, &data->model, w, u->map[r], u->map_length[r],
                                           st ? &drained : err);
        if (!st) st = rs;
    }
    if (!st && offsets) st = sp_writer_put_clock_offsets(w, offsets, (size_t)size, err);
    if (st) {
        sp_writer_abort(w);
        return st;
    }
    st = sp_writer_commit(w, err);
    sp_internal_session_moved(data, saved_as); /* the summary reads the file back */
    return st;
}

#ifdef SP_MPI_PARALLEL_WRITER
/* Everyone: the parallel writer (parallel_writer.h). 1 when the file is
 * written; 0 when rank 0 said why not, and the stream writer takes over. */
static int write_in_parallel(MPI_Comm comm, int rank, int size, sp_session_data *data,
                             const sp_region_union *u, int union_rc, int64_t num_nodes,
                             const sp_clock_offset *offsets, int *described) {
    int ok = union_rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all) return 0;
    sp_status st = SP_OK;
    if (rank == 0) {
        st = sp_internal_session_describe(data, size, num_nodes);
        *described = st == SP_OK;
        if (!st) st = sp_model_meta_string(&data->model, "mpi_writer", "parallel");
    }
    char *saved_as = NULL;
    sp_parallel_input in = {&data->model,
                            u,
                            data->model.meta,
                            data->model.num_meta,
                            offsets,
                            offsets ? (size_t)size : 0,
                            data->config.file_path,
                            sp_internal_write_options(data),
                            &data->target,
                            &saved_as};
    sp_error err = {SP_OK, ""};
    int go = st == SP_OK, everyone = 0;
    MPI_Allreduce(&go, &everyone, 1, MPI_INT, MPI_MIN, comm);
    st = everyone ? sp_mpi_write_parallel(comm, rank, size, &in, &err) : SP_ERR_MPI;
    if (st == SP_OK && rank == 0) sp_internal_session_moved(data, saved_as);
    if (st == SP_OK) return 1;
    free(saved_as);
    if (rank == 0)
        fprintf(stderr,
                "scope-profiler: the parallel writer failed (%s); writing through rank 0 (the "
                "stream writer) instead\n",
                err.message[0] ? err.message : sp_status_string(st));
    return 0;
}
#endif

/* Everyone: rank 0 reads the written file back for the summary and the results. */
static void report(int rank, sp_status st, const sp_session_data *data,
                   const sp_finalize_options *options) {
    int quiet = data->config.quiet || (options && options->quiet);
    int want = options && options->results;
    if (rank != 0 || st || (quiet && !want)) return;
    sp_error err = {SP_OK, ""};
    sp_results *results = sp_read(data->config.file_path, &err);
    if (!results) {
        fprintf(stderr, "scope-profiler: %s\n", err.message);
        return;
    }
    if (!quiet)
        sp_internal_print_summary(results, options && options->stream ? options->stream : stdout);
    if (want)
        *options->results = results;
    else
        sp_results_free(results);
}

static sp_status collective_finalize(const sp_finalize_options *options) {
    MPI_Comm comm = session_comm();
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    sp_session_data data;
    sp_status st = sp_internal_session_stop((uint32_t)rank, &data);
    if (st == SP_ERR_NOT_ACTIVE) return st; /* another thread's finalize won the session */
    sp_mpi_calls_attach_bytes(&data.model);
    sp_arrival arrival = sp_mpi_arrival_check(comm, sp_mpi_timeout_seconds());
    if (arrival != SP_ARRIVAL_ALL) {
        if (arrival == SP_ARRIVAL_TIMED_OUT)
            fprintf(stderr,
                    "scope-profiler: rank %d: not every rank reached sp_finalize() within "
                    "SCOPE_PROFILER_MPI_TIMEOUT; saving this rank's calls on its own\n",
                    rank);
        else
            fprintf(stderr,
                    "scope-profiler: rank %d reached sp_finalize() after the other ranks had "
                    "given up waiting (SCOPE_PROFILER_MPI_TIMEOUT); saving its calls on its own\n",
                    rank);
        sp_mpi_write_rank_file(&data, rank, size);
        sp_internal_session_end(&data);
        return SP_ERR_MPI;
    }
    sp_clock_offset *offsets = clock_offsets(comm, rank, size);
    int64_t nodes = count_nodes(comm, rank, size);
    if (data.model.layout == SP_LAYOUT_AGGREGATE) { /* small data: always rank 0's path */
        st = sp_mpi_aggregate_finalize(comm, rank, size, &data, nodes);
        report(rank, st, &data, options);
        free(offsets);
        forget_setup_offsets();
        sp_internal_session_end(&data);
        return st;
    }
    uint64_t mine = data.model.num_events, total = 0;
    int my_threads = data.model.thread_ids != NULL, threads = 0;
    MPI_Reduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
    MPI_Reduce(&my_threads, &threads, 1, MPI_INT, MPI_MAX, 0, comm);
    sp_region_union u;
    int rc = sp_region_union_build(comm, rank, size, data.model.region_names,
                                   data.model.num_regions, &u);
    sp_error err = {SP_OK, ""};
    sp_status target_status = SP_OK;
    int written = 0, described = 0;
#ifdef SP_MPI_PARALLEL_WRITER
    sp_write_options wo = sp_internal_write_options(&data);
    int compressed = rank == 0 && sp_writer_gzip_level(total, &wo) >= 0;
    int parallel = sp_mpi_writer_parallel(comm, rank, sp_mpi_writer_auto(nodes, compressed));
    if (parallel)
        written = write_in_parallel(comm, rank, size, &data, &u, rc, nodes, offsets, &described);
#else
    sp_mpi_writer_parallel(comm, rank, 0); /* only to explain, if parallel was asked for */
#endif
    if (!written && rank == 0) {
        st = rc != MPI_SUCCESS ? sp_error_set(&err, SP_ERR_MPI, "gathering the region names failed")
                               : write_shared_file(comm, size, &data, &u, total, threads, nodes,
                                                   offsets, described, &target_status, &err);
        if (st) fprintf(stderr, "scope-profiler: %s\n", err.message);
    } else if (!written) {
        int go = 0;
        MPI_Bcast(&go, 1, MPI_INT, 0, comm);
        if (go && sp_mpi_send_rank(comm, &data.model) != MPI_SUCCESS) st = SP_ERR_MPI;
    }
    /* [0]: is everything saved in one file; [1]: what every rank returns (the
     * target's failure even when the fallback file holds everything) */
    int status[2] = {(int)st, (int)(st ? st : target_status)};
    MPI_Bcast(status, 2, MPI_INT, 0, comm);
    if (status[0] != SP_OK) sp_mpi_write_rank_file(&data, rank, size); /* nothing gets lost */
    else
        sp_mpi_peer_write(comm, rank, size, data.config.file_path); /* issue 25 */
    report(rank, (sp_status)status[1], &data, options);
    sp_region_union_free(&u);
    free(offsets);
    forget_setup_offsets();
    sp_internal_session_end(&data);
    return (sp_status)status[1];
}

/* sp_finalize() once this library is loaded. */
static sp_status finalize_hook(const sp_finalize_options *options) {
    if (options && options->results) *options->results = NULL;
    sp_mpi_calls_stop(); /* what follows is our own MPI traffic */
    sp_session_state state = sp_internal_session_state();
    if (state != SP_SESSION_RECORDING || !mpi_running())
        return sp_internal_finalize_serial(options);
    sp_status st = collective_finalize(options);
    sp_mpi_calls_forget_peers();
    return st;
}

__attribute__((constructor)) static void install_hook(void) {
    sp_internal_set_finalize_hook(finalize_hook);
}

/* Called by our MPI_Finalize before the real one. */
void sp_mpi_before_finalize(void) {
    if (sp_internal_session_state() == SP_SESSION_RECORDING) {
        /* scope-profiler run's table goes to stderr: the program's output stays its own */
        int quiet;
        sp_run_options(&quiet);
        sp_finalize_options run = SP_FINALIZE_OPTIONS_INIT;
        run.stream = stderr;
        run.quiet = quiet;
        sp_status st = sp_finalize(sp_internal_session_is_provisional() ? &run : NULL);
        if (st != SP_OK)
            fprintf(stderr, "scope-profiler: finalizing the profile in MPI_Finalize: %s\n",
                    sp_status_string(st));
    }
    sp_mpi_arrival_settle(); /* never free a communicator, or finalize MPI, with it pending */
    if (profiling_comm != MPI_COMM_NULL) MPI_Comm_free(&profiling_comm);
}
