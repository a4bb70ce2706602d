/*
 * tests/record/abi1: the public header as it was at hot-path ABI 1 (the first
 * inline path, issue 29), kept verbatim below this paragraph so that a program
 * built against it can be linked with the current library (test_record_old_abi).
 *
 * scope_profiler.h: the recording API of libscope_profiler.
 *
 * A program marks named regions; sp_finalize() writes every completed call
 * of every region to one HDF5 file (layout: docs/format.md). Typical use:
 *
 *     sp_options opt = SP_OPTIONS_INIT;
 *     opt.label = "tutorial 2";
 *     sp_setup(&opt);
 *     SP_REGION("setup") { ... }
 *     sp_finalize(NULL);
 *
 * Threading: every thread records into buffers of its own, without locks or
 * atomic read-modify-write instructions. sp_setup() and sp_finalize() must
 * not run while other threads are inside a region (join or quiesce them).
 *
 * Timestamps are int64 nanoseconds on the CLOCK_MONOTONIC timeline. The hot
 * path may read the TSC; its ticks are converted onto that timeline at
 * finalize (docs/clock.md).
 *
 * Compile with -DSP_DISABLE to remove all instrumentation: the macros and
 * the recording functions then compile to nothing.
 */
#ifndef SCOPE_PROFILER_H
#define SCOPE_PROFILER_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SP_VERSION_MAJOR  0
#define SP_VERSION_MINOR  1
#define SP_VERSION_PATCH  0
#define SP_VERSION_STRING "0.1.0"
/** Single number for comparisons: major * 10000 + minor * 100 + patch. */
#define SP_VERSION_NUMBER (SP_VERSION_MAJOR * 10000 + SP_VERSION_MINOR * 100 + SP_VERSION_PATCH)

#if defined(__GNUC__)
#define SP_API __attribute__((visibility("default")))
#else
#define SP_API
#endif

/** Result of every function that can fail. SP_OK is 0; all others are errors. */
typedef enum sp_status {
    SP_OK = 0,
    SP_ERR_INVALID_ARGUMENT,  /**< a NULL or out-of-range argument */
    SP_ERR_OUT_OF_MEMORY,     /**< an allocation failed; recorded data is kept */
    SP_ERR_NOT_ACTIVE,        /**< sp_finalize() without an active sp_setup() */
    SP_ERR_ALREADY_ACTIVE,    /**< sp_setup() while a profiling session is active */
    SP_ERR_NO_DIRECTORY,      /**< the output file's directory does not exist */
    SP_ERR_PERMISSION,        /**< the output directory or file is not writable */
    SP_ERR_DISK_FULL,         /**< no space left, quota or file-size limit hit */
    SP_ERR_IO,                /**< another input/output error */
    SP_ERR_HDF5,              /**< the HDF5 library reported an error */
    SP_ERR_NO_SUCH_FILE,      /**< a profile to read does not exist */
    SP_ERR_NOT_HDF5,          /**< the file is not an HDF5 file */
    SP_ERR_NOT_A_PROFILE,     /**< an HDF5 file without a profile layout */
    SP_ERR_SCHEMA_TOO_NEW,    /**< written with a newer schema than this library reads */
    SP_ERR_DAMAGED,           /**< the file's index or columns are inconsistent */
    SP_ERR_BAD_DATASET,       /**< a dataset has the wrong type or shape */
    SP_ERR_NO_SUCH_REGION,    /**< no region of that name */
    SP_ERR_NO_SUCH_RANK,      /**< the region has no data for that rank */
    SP_ERR_BAD_PATTERN,       /**< an include/exclude regular expression does not compile */
    SP_ERR_NESTING,           /**< calls overlap without nesting */
    SP_ERR_UNAVAILABLE,       /**< the value needs per-call data the file does not hold */
    SP_ERR_BAD_OPTION,        /**< an unknown column, sort key or option value */
    SP_ERR_MPI,               /**< an MPI call failed */
    SP_STATUS_COUNT_          /* not a status: the number of statuses */
} sp_status;

/** A one-sentence, static description of a status (never NULL). */
SP_API const char *sp_status_string(sp_status status);

/** How much of the environment is stored in /metadata. */
typedef enum sp_metadata_detail {
    SP_METADATA_MINIMAL = 0, /**< versions, platform, CPU, counts, times, label: no user or host data */
    SP_METADATA_FULL = 1     /**< adds user, host, uname, working directory, modules, PATH, SLURM_* */
} sp_metadata_detail;

/** Compression of the per-call columns. */
typedef enum sp_compression {
    SP_COMPRESSION_AUTO = 0, /**< gzip level 4 + shuffle from 16,384 calls on, none below */
    SP_COMPRESSION_NONE = 1,
    SP_COMPRESSION_GZIP = 2 /**< gzip at sp_options.compression_level (0-9) + shuffle */
} sp_compression;

/** The counter the hot path reads. */
typedef enum sp_clock_source {
    SP_CLOCK_AUTO = 0,     /**< the TSC when it is invariant and the kernel uses it, else MONOTONIC */
    SP_CLOCK_TSC = 1,      /**< the TSC; falls back to MONOTONIC (with a warning) if unusable */
    SP_CLOCK_MONOTONIC = 2 /**< clock_gettime(CLOCK_MONOTONIC) */
} sp_clock_source;

/** Where calls are recorded (docs/recording.md, "Journal"). */
typedef enum sp_journal_mode {
    SP_JOURNAL_AUTO = 0, /**< the library's default (a journal) */
    SP_JOURNAL_ON = 1,   /**< a journal file: what was recorded survives a kill */
    SP_JOURNAL_OFF = 2   /**< memory only (diskless nodes); a killed run leaves nothing */
} sp_journal_mode;

/** How sp_finalize() writes the file of an MPI run (docs/mpi.md, "Writers"). */
typedef enum sp_mpi_writer {
    SP_MPI_WRITER_AUTO = 0,    /**< parallel in libscope_profiler_mpi_parallel, else stream */
    SP_MPI_WRITER_STREAM = 1,  /**< every rank's calls pass through rank 0, which writes */
    SP_MPI_WRITER_PARALLEL = 2 /**< every rank writes its own slice (parallel HDF5, MPI-IO) */
} sp_mpi_writer;

/**
 * Options of sp_setup(). All-zero (SP_OPTIONS_INIT) means all defaults.
 * Environment variables override them (see sp_setup()).
 */
typedef struct sp_options {
    const char *file_path;          /**< output file; NULL = "profiling_data.h5" */
    const char *label;              /**< stored as metadata "label"; NULL = none */
    sp_metadata_detail metadata_detail;
    int capture_region_source;      /**< nonzero: store each region's source text */
    int disable;                    /**< nonzero: record nothing, write nothing */
    sp_compression compression;
    int compression_level;          /**< gzip level 0-9, used with SP_COMPRESSION_GZIP */
    sp_clock_source clock;
    int mpi_calls; /**< nonzero: sp_mpi_setup() times the common MPI calls as regions
                        (libscope_profiler_mpi; docs/parallel.md) */
    sp_journal_mode journal;
    const char *journal_directory;  /**< where the journal goes; NULL = the output's directory */
    uint64_t memory_limit;          /**< bytes for recorded calls; beyond it calls are counted,
                                         not stored; 0 = no limit */
    int aggregate;                  /**< nonzero: aggregate mode, no per-call events: per call
                                         path count, total, min, max, spread and a duration
                                         histogram (docs/recording.md, "Aggregate mode") */
    sp_mpi_writer mpi_writer;       /**< read by sp_mpi_setup(); docs/mpi.md, "Writers" */
    int no_session_root;            /**< nonzero: no "scope_profiler.session" root call (the
                                         Python module's setup(); its session() keeps one) */
} sp_options;

/* {0} in C; {} in C++, where g++ -Wextra would flag every member {0} leaves out. */
#ifdef __cplusplus
#define SP_INTERNAL_ZERO_INIT_ {}
#else
#define SP_INTERNAL_ZERO_INIT_ {0}
#endif

/** Initialiser for sp_options with every default. */
#define SP_OPTIONS_INIT SP_INTERNAL_ZERO_INIT_

/**
 * Starts a profiling session. `options` may be NULL (all defaults).
 * The session itself is recorded as one call of the region
 * "scope_profiler.session" on the calling thread, ended by sp_finalize().
 * The strings are copied. Environment variables override the options:
 *   SCOPE_PROFILER_OUTPUT=path        file_path
 * In either, %p (process id), %r (rank), %j (batch job id), %t (UTC time),
 * %h (host) and %% are expanded, and a directory means "profiling_data.h5"
 * inside it. A program on this (serial) library that an MPI launcher
 * started as several processes writes one file per process, NAME.rankR.h5
 * (docs/recording.md, "Output path").
 *   SCOPE_PROFILER_DISABLE=1          disable (also: true, yes, on)
 *   SCOPE_PROFILER_LABEL=text         label
 *   SCOPE_PROFILER_METADATA=minimal|full
 *   SCOPE_PROFILER_CAPTURE_SOURCE=0|1
 *   SCOPE_PROFILER_COMPRESSION=auto|none|gzip|gzip:N
 *   SCOPE_PROFILER_CLOCK=auto|tsc|monotonic
 *   SCOPE_PROFILER_QUIET=1            sp_finalize() prints nothing
 *   SCOPE_PROFILER_MPI_CALLS=0|1      mpi_calls (read by sp_mpi_setup())
 *   SCOPE_PROFILER_MPI_WRITER=auto|stream|parallel  mpi_writer (read at the MPI finalize)
 *   SCOPE_PROFILER_JOURNAL=1|0        journal (1 forces it, 0 memory only)
 *   SCOPE_PROFILER_JOURNAL_DIR=dir    journal_directory
 *   SCOPE_PROFILER_MEMORY_LIMIT=N     memory_limit (bytes; suffix K, M or G)
 *   SCOPE_PROFILER_AGGREGATE=1|0      aggregate (1 forces it on, 0 off)
 * A malformed value is reported on stderr and ignored.
 * Returns SP_ERR_ALREADY_ACTIVE if a session is active (finalize it first).
 */
SP_API sp_status sp_setup(const sp_options *options);

struct sp_results; /* the analysis API's result object: scope_profiler/results.h */

/** Options of sp_finalize(). All-zero (SP_FINALIZE_OPTIONS_INIT) means all defaults. */
typedef struct sp_finalize_options {
    int quiet;                     /**< nonzero: print nothing (default: the summary table) */
    FILE *stream;                  /**< where the summary goes; NULL = stdout */
    struct sp_results **results;   /**< if set, receives the run's results (free with
                                        sp_results_free); NULL when nothing was written */
} sp_finalize_options;

#define SP_FINALIZE_OPTIONS_INIT SP_INTERNAL_ZERO_INIT_

/**
 * Ends the session: stops recording, converts timestamps, writes the file
 * (a temporary file in the same directory, fsync'ed, then renamed over the
 * target, so a failure never leaves a partial file nor destroys an older
 * one) and prints the summary unless quiet. Calls still open are reported
 * on stderr and left out. After sp_finalize(), recording calls are no-ops
 * until the next sp_setup(), which starts a new, empty session.
 * Returns SP_ERR_NOT_ACTIVE (and writes nothing) without an active session,
 * e.g. on a second sp_finalize(). A disabled session returns SP_OK and
 * writes nothing. On a write error the status names the cause and one line
 * on stderr names the path.
 */
SP_API sp_status sp_finalize(const sp_finalize_options *options);

/** Nonzero while a session records (after sp_setup, before sp_finalize, not disabled). */
SP_API int sp_is_active(void);

/** The path the active (or last) session writes to, or NULL. */
SP_API const char *sp_output_path(void);

/**
 * A region handle: a small integer naming one region for the whole process.
 * 0 (SP_REGION_NONE) is never a valid handle; calls with it are ignored.
 */
typedef uint32_t sp_region_t;
#define SP_REGION_NONE ((sp_region_t)0)

/**
 * Interns a region name and returns its handle; the same name always gives
 * the same handle. Safe from any thread, before or after sp_setup(). The
 * first interning of a name records `file`:`line` as the region's source
 * location. Returns SP_REGION_NONE if `name` is NULL or memory runs out.
 */
SP_API sp_region_t sp_region_at(const char *name, const char *file, int line);
#define sp_region(name) sp_region_at((name), __FILE__, __LINE__)

/** The name of a handle, or NULL for an unknown handle. */
SP_API const char *sp_region_name(sp_region_t region);

/**
 * Pre-allocates (and touches) room for `calls` more calls of `region` on the
 * calling thread, so that recording them neither allocates memory nor
 * page-faults: useful before a timed loop of many short calls. Returns
 * SP_ERR_NOT_ACTIVE without an active session, SP_ERR_INVALID_ARGUMENT for
 * an unknown handle, SP_ERR_OUT_OF_MEMORY if the memory is not available.
 */
SP_API sp_status sp_reserve(sp_region_t region, uint64_t calls);

/**
 * Names the calling thread in the profile's thread table (and in `inspect`),
 * for example "solver" or "omp 3". The name is copied, cut at 63 bytes; it
 * also becomes the thread's system name (cut at 15 bytes, as Linux allows),
 * so debuggers and top show it. Without this call a thread is stored under
 * its system name at exit or finalize. Callable any time, before or during
 * a session; the name stays until the thread ends or names itself again.
 * Returns SP_ERR_INVALID_ARGUMENT for NULL, SP_ERR_OUT_OF_MEMORY if the
 * thread's state cannot be created.
 */
SP_API sp_status sp_set_thread_name(const char *name);

/**
 * Records the program's language as the metadata "source_language" ("c" by
 * default; the C++ and Fortran layers set "c++" and "fortran"). Takes effect
 * at the next sp_finalize(); the text is copied, cut at 15 bytes; NULL or ""
 * restores "c".
 */
SP_API void sp_set_source_language(const char *language);

/**
 * Adds `key` = `value` (text, copied) to the metadata of every later
 * sp_finalize(), e.g. the Python module's "python_version". A key the
 * library writes itself keeps the library's value; the same key again
 * replaces the value, a NULL value removes it. Returns
 * SP_ERR_INVALID_ARGUMENT for a NULL or empty key, SP_ERR_OUT_OF_MEMORY.
 */
SP_API sp_status sp_set_metadata_string(const char *key, const char *value);

/**
 * User metadata (docs/metadata.md): `key` = `value` stored in /metadata as an
 * int64, a float64 or a string attribute, where the Python package keeps its
 * extra fields, so that `scaling --x KEY`, `stats --group-by KEY` and
 * Thicket can use it. A key is 1 to 64 letters, digits, '_', '.' or '-'
 * starting with a letter or '_'; a key the library writes itself (mpi_size,
 * label, timestamp, ...) is refused. The same key again replaces the value.
 * SCOPE_PROFILER_METADATA_<KEY>=value in the environment overrides it.
 * Returns SP_ERR_INVALID_ARGUMENT for a bad or built-in key or a value that
 * is not finite, SP_ERR_OUT_OF_MEMORY. In C, sp_set_metadata(key, value)
 * picks the function from the value's type.
 */
SP_API sp_status sp_set_metadata_int(const char *key, int64_t value);
SP_API sp_status sp_set_metadata_double(const char *key, double value);
#if !defined(__cplusplus) && !defined(SP_DISABLE)
#define sp_set_metadata(key, value)                                                                \
    _Generic((value),                                                                              \
        char *: sp_set_metadata_string,                                                            \
        const char *: sp_set_metadata_string,                                                      \
        float: sp_set_metadata_double,                                                             \
        double: sp_set_metadata_double,                                                            \
        default: sp_set_metadata_int)((key), (value))
#endif

/**
 * Adds `tag` (copied) to the region's tags, stored in the row's `tags` JSON
 * list as the Python package writes them and selected with `--tag` by the
 * command-line tool. A tag already present is not added twice. Callable any
 * time; the tags of a region are those it has at sp_finalize(). Returns
 * SP_ERR_INVALID_ARGUMENT for an unknown handle or a NULL or empty tag,
 * SP_ERR_OUT_OF_MEMORY.
 */
SP_API sp_status sp_region_add_tag(sp_region_t region, const char *tag);

/*
 * The recording calls as real functions, for callers that cannot use the
 * inline ones (Fortran and other foreign interfaces, function pointers):
 * each costs the inline path plus one call, and behaves exactly like
 * sp_begin(), sp_end_at(), sp_begin_name_at() and sp_end_name_at().
 * `file` may be NULL (a mismatch report then shows "?").
 */
SP_API void sp_begin_fn(sp_region_t region);
SP_API void sp_end_fn(sp_region_t region, const char *file, int line);
SP_API void sp_begin_name_fn(const char *name, const char *file, int line);
SP_API void sp_end_name_fn(const char *name, const char *file, int line);

/* For libscope_profiler_mpi only (not for applications): the core's
 * private interface for its companion library, an opaque table whose layout
 * changes with `version`; NULL for a version this library does not have. */
SP_API const void *sp_companion_interface(unsigned version);

/* --- Hot path ------------------------------------------------------------
 * sp_begin()/sp_end() test one flag inline, so that before sp_setup(), after
 * sp_finalize() and when disabled they cost about a nanosecond. While a
 * session records, the usual call (x86-64, GCC or Clang) is recorded inline
 * into the calling thread's buffers through a small per-thread structure
 * whose layout is ABI version SP_INTERNAL_HOT_ABI_ (src/record/README.md);
 * everything unusual goes to the library's out-of-line path.
 * Not part of the API: sp_internal_*, SP_INTERNAL_*.  */
SP_API extern int sp_internal_active_;
/* sp_internal_active_ while a session records and the inline path may be
 * taken (the TSC is the clock, membarrier works, not aggregate mode); any
 * other nonzero value: recording, but only out of line. */
#define SP_INTERNAL_ACTIVE_INLINE_ 3

/* The inline path's view of a thread (ABI 1). A header of another ABI names
 * its structure, its thread pointer and its out-of-line calls differently, so
 * a program built against it never reads this layout: a library of another
 * ABI keeps this one's names with the pointer always NULL, so that every call
 * goes out of line, where it is recorded correctly (with one warning). */
#define SP_INTERNAL_HOT_ABI_ 1
typedef struct sp_internal_hot_call_ {
    uint64_t start, end; /* clock ticks; end == 0 while the call is open */
} sp_internal_hot_call_;
typedef struct sp_internal_hot_chunk_ { /* the header of a chunk of calls */
    uint32_t fixed_[6];
    uint64_t check_;
    uint64_t calls_check; /* XOR of sp_internal_hot_mix_() over its completed calls */
    uint32_t pending;     /* 1 + the index of the call whose end was stored last */
    uint32_t reserved_;
} sp_internal_hot_chunk_;
typedef struct sp_internal_hot_cursor_ { /* where a region's next call goes */
    sp_internal_hot_call_ *next, *limit;
    sp_internal_hot_chunk_ *chunk;
} sp_internal_hot_cursor_;
typedef struct sp_internal_hot_frame_ { /* an open call */
    sp_internal_hot_call_ *slot;
    sp_internal_hot_chunk_ *chunk;
    sp_region_t region;
} sp_internal_hot_frame_;
typedef struct sp_internal_hot_ {
    sp_internal_hot_cursor_ *cursors; /* indexed by handle */
    uint32_t num_cursors;
    uint32_t depth;
    sp_internal_hot_frame_ *stack;
    uint32_t stack_capacity;
    int busy;     /* inside a recording call (the session switch waits for 0) */
    uint32_t abi; /* SP_INTERNAL_HOT_ABI_ of the library that made it */
} sp_internal_hot_;

#if defined(__GNUC__)
/* The calling thread's structure once it recorded in this session, else NULL
 * (sp_finalize sets it back to NULL for every thread, so that outside a
 * session a call costs two loads and no store). */
SP_API extern __thread sp_internal_hot_ *sp_internal_hot_v1_
    __attribute__((tls_model("initial-exec")));
#endif
SP_API void sp_internal_begin_v1_(sp_region_t region);
SP_API void sp_internal_end_v1_(sp_region_t region, const char *file, int line);
SP_API void sp_internal_begin_name_v1_(const char *name, const char *file, int line);
SP_API void sp_internal_end_name_v1_(const char *name, const char *file, int line);

/* One completed call's share of its chunk's calls_check: every bit of the
 * call's index, start and end moves the result (the journal's check,
 * docs/format.md). */
static inline uint64_t sp_internal_hot_mix_(uint64_t index, uint64_t start, uint64_t end) {
    uint64_t h = (start ^ (index * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
    h ^= end + (h >> 29);
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

/* Stores a call's end and its share of the chunk's check, in the order the
 * journal's recovery relies on: pending, end, check. */
static inline void sp_internal_hot_finish_(const sp_internal_hot_frame_ *frame, uint64_t now) {
    sp_internal_hot_chunk_ *c = frame->chunk;
    sp_internal_hot_call_ *slot = frame->slot;
    uint64_t i = (uint64_t)(slot - (sp_internal_hot_call_ *)(c + 1));
    c->pending = (uint32_t)i + 1;
#if defined(__GNUC__)
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* kept in this order in the mapped journal */
#endif
    slot->end = now;
#if defined(__GNUC__)
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
    c->calls_check ^= sp_internal_hot_mix_(i, slot->start, now);
}

/* ThreadSanitizer cannot see the inline path's protocol with sp_finalize (a
 * busy flag and an asymmetric membarrier fence, src/record/quiesce.h) and would
 * report races it prevents: a TSan build takes the out-of-line path. */
#if defined(__SANITIZE_THREAD__)
#define SP_INTERNAL_TSAN_ 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SP_INTERNAL_TSAN_ 1
#endif
#endif
#if defined(__GNUC__) && defined(__x86_64__) && !defined(SP_NO_INLINE_HOT_PATH) &&               \
    !defined(SP_INTERNAL_TSAN_)
#define SP_INTERNAL_HOT_INLINE_ 1
#define SP_INTERNAL_LIKELY_(x) __builtin_expect(!!(x), 1)
/* Marks the thread busy (the session switch waits for busy to clear,
 * src/record/quiesce.h); the caller clears it in every case. */
static inline __attribute__((always_inline)) void sp_internal_hot_enter_(sp_internal_hot_ *t) {
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    __asm__ __volatile__("" ::: "memory");
}
static inline __attribute__((always_inline)) int sp_internal_hot_inline_on_(void) {
    return __atomic_load_n(&sp_internal_active_, __ATOMIC_ACQUIRE) == SP_INTERNAL_ACTIVE_INLINE_;
}
static inline __attribute__((always_inline)) void sp_internal_hot_leave_(sp_internal_hot_ *t) {
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}
/* Records a begin inline and returns 1; 0: the out-of-line path decides (no
 * session, the thread's first call, a full chunk, another mode). */
static inline __attribute__((always_inline)) int sp_internal_hot_begin_(sp_region_t region) {
    /* relaxed: sp_finalize clears it for every thread, see below */
    sp_internal_hot_ *t = __atomic_load_n(&sp_internal_hot_v1_, __ATOMIC_RELAXED);
    if (!SP_INTERNAL_LIKELY_(t != 0)) return 0; /* no session yet for this thread: no store */
    sp_internal_hot_enter_(t);
    if (SP_INTERNAL_LIKELY_(sp_internal_hot_inline_on_() && region < t->num_cursors)) {
        sp_internal_hot_cursor_ *cursor = &t->cursors[region];
        sp_internal_hot_call_ *slot = cursor->next;
        uint32_t depth = t->depth;
        if (SP_INTERNAL_LIKELY_(slot != cursor->limit && depth < t->stack_capacity)) {
            cursor->next = slot + 1;
            sp_internal_hot_frame_ *frame = &t->stack[depth];
            t->depth = depth + 1;
            frame->slot = slot;
            frame->chunk = cursor->chunk;
            frame->region = region;
            slot->start = __builtin_ia32_rdtsc();
            sp_internal_hot_leave_(t);
            return 1;
        }
    }
    sp_internal_hot_leave_(t);
    return 0;
}
/* Ends the innermost open call inline if it is of `region` and returns 1;
 * 0: the out-of-line path decides. */
static inline __attribute__((always_inline)) int sp_internal_hot_end_(sp_region_t region) {
    /* relaxed: sp_finalize clears it for every thread, see below */
    sp_internal_hot_ *t = __atomic_load_n(&sp_internal_hot_v1_, __ATOMIC_RELAXED);
    if (!SP_INTERNAL_LIKELY_(t != 0)) return 0; /* no session yet for this thread: no store */
    sp_internal_hot_enter_(t);
    uint32_t depth = t->depth;
    if (SP_INTERNAL_LIKELY_(sp_internal_hot_inline_on_() && depth != 0)) {
        sp_internal_hot_frame_ *frame = &t->stack[depth - 1];
        if (SP_INTERNAL_LIKELY_(frame->region == region)) {
            t->depth = depth - 1;
            sp_internal_hot_finish_(frame, __builtin_ia32_rdtsc());
            sp_internal_hot_leave_(t);
            return 1;
        }
    }
    sp_internal_hot_leave_(t);
    return 0;
}
#endif

/* The previous ABI's out-of-line calls (no inline path): kept for programs
 * built against that header; they record correctly and warn once. */
SP_API void sp_internal_begin_(sp_region_t region);
SP_API void sp_internal_end_(sp_region_t region, const char *file, int line);
SP_API void sp_internal_begin_name_(const char *name, const char *file, int line);
SP_API void sp_internal_end_name_(const char *name, const char *file, int line);

#if defined(__GNUC__)
#define SP_INTERNAL_ACTIVE_() __builtin_expect(__atomic_load_n(&sp_internal_active_, __ATOMIC_RELAXED), 1)
#else
#define SP_INTERNAL_ACTIVE_() (sp_internal_active_)
#endif

#ifndef SP_DISABLE

/** Starts a call of `region` on the calling thread. */
static inline void sp_begin(sp_region_t region) {
#ifdef SP_INTERNAL_HOT_INLINE_
    if (SP_INTERNAL_LIKELY_(sp_internal_hot_begin_(region))) return;
#endif
    if (SP_INTERNAL_ACTIVE_()) sp_internal_begin_v1_(region);
}

/**
 * Ends the innermost open call of `region` on the calling thread (a macro, so
 * that a mismatch can name its source line; sp_end_at() is the function).
 * If `region` is not the innermost open region, the mismatch is reported
 * once per call site on stderr; when `region` is open further out, the calls
 * opened inside it and never ended are dropped (and counted at finalize) and
 * `region` ends here; otherwise the call is ignored.
 */
static inline void sp_end_at(sp_region_t region, const char *file, int line) {
#ifdef SP_INTERNAL_HOT_INLINE_
    if (SP_INTERNAL_LIKELY_(sp_internal_hot_end_(region))) return;
#endif
    if (SP_INTERNAL_ACTIVE_()) sp_internal_end_v1_(region, file, line);
}
#define sp_end(region) sp_end_at((region), __FILE__, __LINE__)

/** sp_begin() by name: looks the name up in a per-thread cache, no lock on a hit. */
static inline void sp_begin_name_at(const char *name, const char *file, int line) {
    if (SP_INTERNAL_ACTIVE_()) sp_internal_begin_name_v1_(name, file, line);
}
#if defined(__GNUC__)
/* A name the compiler knows (a string literal) gets its handle cached at the
 * call site, as SP_REGION does: then a by-name pair costs a handle pair. */
#define sp_begin_name(name)                                                                        \
    (__builtin_constant_p(name) ? sp_begin(SP_INTERNAL_NAME_SITE_(name))                          \
                                : sp_begin_name_at((name), __FILE__, __LINE__))
#else
#define sp_begin_name(name) sp_begin_name_at((name), __FILE__, __LINE__)
#endif

/** sp_end() by name. */
static inline void sp_end_name_at(const char *name, const char *file, int line) {
    if (SP_INTERNAL_ACTIVE_()) sp_internal_end_name_v1_(name, file, line);
}
#if defined(__GNUC__)
#define sp_end_name(name)                                                                          \
    (__builtin_constant_p(name) ? sp_end_at(SP_INTERNAL_NAME_SITE_(name), __FILE__, __LINE__)     \
                                : sp_end_name_at((name), __FILE__, __LINE__))
#else
#define sp_end_name(name) sp_end_name_at((name), __FILE__, __LINE__)
#endif

/* --- Scoped macros -------------------------------------------------------- */

/* The handle of one call site, interned on the site's first execution. */
SP_API sp_region_t sp_internal_site_(sp_region_t *slot, const char *name, const char *file,
                                     int line);

typedef struct sp_internal_scope_ {
    sp_region_t region;
    int pending; /* 1 until the block body has run once */
    const char *file;
    int line;
} sp_internal_scope_;

static inline sp_internal_scope_ sp_internal_scope_begin_(sp_region_t region, const char *file,
                                                         int line) {
    sp_internal_scope_ s;
    s.region = region;
    s.pending = 1;
    s.file = file;
    s.line = line;
    sp_begin(region);
    return s;
}

static inline void sp_internal_scope_end_(sp_internal_scope_ *s) {
    sp_end_at(s->region, s->file, s->line);
}

#define SP_INTERNAL_CAT2_(a, b) a##b
#define SP_INTERNAL_CAT_(a, b)  SP_INTERNAL_CAT2_(a, b)

#if defined(__GNUC__)
/* A static handle per call site; a relaxed atomic load is a plain load. */
#define SP_INTERNAL_SITE_(name)                                                                    \
    __extension__({                                                                                \
        static sp_region_t sp_site_handle_;                                                        \
        sp_region_t sp_h_ = __atomic_load_n(&sp_site_handle_, __ATOMIC_RELAXED);                   \
        sp_h_ ? sp_h_ : sp_internal_site_(&sp_site_handle_, (name), __FILE__, __LINE__);           \
    })

/* The by-name macros' call-site cache: the first literal seen at the site and
 * its handle, written once (under a lock) and then only read. A site that
 * sees another literal (an inline function called with several) looks that
 * one up by name every time. */
typedef struct sp_internal_name_site_ {
    const char *key;
    sp_region_t handle;
} sp_internal_name_site_t_;
SP_API sp_region_t sp_internal_name_site_(sp_internal_name_site_t_ *site, const char *name,
                                          const char *file, int line);
/* The same pointer (a function, so that comparing with a literal does not warn). */
static inline int sp_internal_same_pointer_(const char *a, const char *b) {
    return a == b;
}
/* A process-wide cache of literal names for the C++ layer (sp::Region{"name"}),
 * which has no call-site storage: slot by the literal's address, written once
 * (under a lock), then only read; a hit is checked byte for byte against the
 * name's text (`text`, zero-padded), so a reused buffer is never mistaken. */
#define SP_INTERNAL_LITERAL_SLOTS_ 256
#define SP_INTERNAL_LITERAL_BYTES_ 32
typedef struct sp_internal_literal_t_ {
    const char *key;
    sp_region_t handle;
    char text[SP_INTERNAL_LITERAL_BYTES_];
} sp_internal_literal_t_;
SP_API extern sp_internal_literal_t_ sp_internal_literals_[SP_INTERNAL_LITERAL_SLOTS_];
/* The handle of the name in the `capacity` bytes at `name` (looked up through
 * the per-thread name cache), entered into its slot if the slot is free. */
SP_API sp_region_t sp_internal_literal_(const char *name, uint64_t capacity, const char *file,
                                        int line);
static inline uint32_t sp_internal_literal_slot_(const char *name) {
    return (uint32_t)(((uintptr_t)name * 0x9E3779B97F4A7C15ull) >> 56);
}
#define SP_INTERNAL_NAME_SITE_(name)                                                               \
    __extension__({                                                                                \
        static sp_internal_name_site_t_ sp_name_site_;                                             \
        sp_internal_same_pointer_(__atomic_load_n(&sp_name_site_.key, __ATOMIC_ACQUIRE), (name))   \
            ? sp_name_site_.handle                                                                 \
            : sp_internal_name_site_(&sp_name_site_, (name), __FILE__, __LINE__);                  \
    })

/**
 * SP_REGION("name") { ... }: times one execution of the block.
 * The call ends however control leaves the block: normally, by return, by
 * goto, or by break/continue. Note that break and continue written directly
 * in the block apply to the block itself (it is a one-pass loop), not to an
 * enclosing loop: they end the call and continue after the block. To leave
 * an enclosing loop from inside, use goto, or time a plain block with
 * SP_SCOPE("name") instead.
 */
#define SP_REGION(name) SP_INTERNAL_REGION_(name, SP_INTERNAL_CAT_(sp_scope_, __COUNTER__))
#define SP_INTERNAL_REGION_(name, var)                                                             \
    for (sp_internal_scope_ var __attribute__((cleanup(sp_internal_scope_end_), unused)) =         \
             sp_internal_scope_begin_(SP_INTERNAL_SITE_(name), __FILE__, __LINE__);                \
         var.pending; var.pending = 0)

/**
 * SP_SCOPE("name");: times from here to the end of the enclosing block
 * (however it is left).
 */
#define SP_SCOPE(name) SP_INTERNAL_SCOPE_(name, SP_INTERNAL_CAT_(sp_scope_, __COUNTER__))
#define SP_INTERNAL_SCOPE_(name, var)                                                              \
    sp_internal_scope_ var __attribute__((cleanup(sp_internal_scope_end_), unused)) =              \
        sp_internal_scope_begin_(SP_INTERNAL_SITE_(name), __FILE__, __LINE__)

/** SP_PROFILE("name"); at the top of a function: times the function's body. */
#define SP_PROFILE(name) SP_SCOPE(name)

/** SP_PROFILE_FUNCTION(); at the top of a function: a region named after the function. */
#define SP_PROFILE_FUNCTION() SP_SCOPE(__func__)

#else /* not GCC/Clang: no cleanup attribute, so no scoped macros */
#define SP_REGION(name)       SP_REGION_needs_gcc_or_clang_use_sp_begin_and_sp_end
#define SP_SCOPE(name)        SP_SCOPE_needs_gcc_or_clang_use_sp_begin_and_sp_end
#define SP_PROFILE(name)      SP_PROFILE_needs_gcc_or_clang_use_sp_begin_and_sp_end
#define SP_PROFILE_FUNCTION() SP_PROFILE_needs_gcc_or_clang_use_sp_begin_and_sp_end
#endif

#else /* SP_DISABLE: instrumentation compiles to nothing, no library needed */

static inline void sp_begin(sp_region_t region) { (void)region; }
static inline void sp_end_at(sp_region_t region, const char *file, int line) {
    (void)region;
    (void)file;
    (void)line;
}
/* A function rather than a comma expression, so that `sp_setup(&opt);` is
 * not a "statement with no effect". */
static inline sp_status sp_internal_disabled_(const void *argument) {
    (void)argument;
    return SP_OK;
}
#undef sp_region
#define sp_region(name)         ((void)(name), SP_REGION_NONE)
#define sp_setup(options)       sp_internal_disabled_(options)
#define sp_finalize(options)    sp_internal_disabled_(options)
#define sp_set_thread_name(name) sp_internal_disabled_(name)
#define sp_set_source_language(language) ((void)(language))
#define sp_set_metadata_string(key, value) ((void)(value), sp_internal_disabled_(key))
#define sp_set_metadata_int(key, value) ((void)(value), sp_internal_disabled_(key))
#define sp_set_metadata_double(key, value) ((void)(value), sp_internal_disabled_(key))
#define sp_set_metadata(key, value) ((void)(value), sp_internal_disabled_(key))
#define sp_region_add_tag(region, tag) ((void)(region), sp_internal_disabled_(tag))
#define sp_begin_fn(region)     ((void)(region))
#define sp_end_fn(region, file, line) ((void)(region), (void)(file), (void)(line))
#define sp_begin_name_fn(name, file, line) ((void)(name), (void)(file), (void)(line))
#define sp_end_name_fn(name, file, line) ((void)(name), (void)(file), (void)(line))
#define sp_end(region)          sp_end_at((region), 0, 0)
#define sp_begin_name(name)     ((void)(name))
#define sp_end_name(name)       ((void)(name))
#define SP_REGION(name)
#define SP_SCOPE(name)          do { } while (0)
#define SP_PROFILE(name)        SP_SCOPE(name)
#define SP_PROFILE_FUNCTION()   SP_SCOPE(0)

#endif /* SP_DISABLE */

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_H */
