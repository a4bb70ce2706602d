/*
 * A session's settings: sp_options with the environment applied
 * (SCOPE_PROFILER_*), strings owned.
 */
#ifndef SP_RECORD_CONFIG_H
#define SP_RECORD_CONFIG_H

#include "scope_profiler.h"

typedef struct sp_config {
    char *file_path;
    char *label; /* NULL = none */
    char *setup_cwd; /* the working directory at sp_setup (NULL if unknown): relative __FILE__s */
    sp_metadata_detail metadata_detail;
    int capture_region_source;
    int disable;
    sp_compression compression;
    int compression_level;
    sp_clock_source clock;
    int quiet;          /* SCOPE_PROFILER_QUIET */
    long launcher_rank; /* a launcher's rank for a per-process file; -1 = none */
    sp_journal_mode journal;
    char *journal_dir;     /* NULL = the output's directory */
    uint64_t memory_limit; /* bytes, 0 = none */
    int aggregate;         /* aggregate mode (record/aggregate.h); the journal is then off */
    int no_session_root;   /* no "scope_profiler.session" root call */
} sp_config;

/* Fills cfg from options (NULL = defaults) and the environment. Malformed
 * variables are reported on stderr and ignored. */
sp_status sp_config_load(sp_config *cfg, const sp_options *options);

void sp_config_clear(sp_config *cfg);

/* SP_JOURNAL_AUTO means a journal (docs/recording.md, "Choosing the default"). */
#define SP_JOURNAL_DEFAULT_ON 1

#define SP_DEFAULT_FILE_PATH "profiling_data.h5"

#endif
