/*
 * `scope-profiler inspect`: the parts of one file's report (inspect.c runs
 * them per file). Layout per python_semantics.md §7.2.
 */
#ifndef SP_CLI_INSPECT_H
#define SP_CLI_INSPECT_H

#include <stdio.h>

#include "cli/cli_list.h"
#include "cli/cli_select.h"
#include "scope_profiler/results.h"

typedef enum inspect_format { INSPECT_TABLE = 0, INSPECT_JSON, INSPECT_CSV } inspect_format;

typedef struct inspect_options {
    cli_select select;
    sp_filter filter; /* from select, once the options are parsed */
    const char *sort;
    cli_list columns;
    const char *percentage_mode;
    cli_list source;
    const char *export_metadata;
    inspect_format format;
    int format_given;
    int metadata_only;
    int regions_only;   /* the region table only (and the banner) */
    int balance_only;   /* the "Load balance" section only */
    int mpi_calls_only; /* the "MPI calls" section only */
    int seconds;        /* --seconds: durations in seconds as the Python package prints them */
    int full;
    int quiet;
    int per_rank;
    int ascii;
    int suppress_notes;
    size_t top;    /* --top N; 0 = every region */
    unsigned max_depth; /* --max-depth N: call-path rows per path; 0 = the default (256) */
    long width;    /* --width N; -1 = not given (the terminal's, or $COLUMNS) */
    size_t fit_to; /* the width the table is fitted to; 0 = no limit */
    int balance;   /* --balance: the balance JSON (docs/parallel.md) */
    int colour;    /* bold titles on stdout */
} inspect_options;

/* A duration as inspect prints it: with its unit (common/duration_text.h), or
 * seconds with 6 decimals under --seconds; "-" when unknown. */
void inspect_duration(char *buf, size_t size, double s, const inspect_options *o);

/* The banner: rule, "{label} - {path}", the counts line, rule, empty line. */
void inspect_print_header(FILE *out, const sp_results *r, const char *path,
                          const inspect_options *o);

/* The "Metadata" section, grouped, values clipped unless o->full; then an empty line.
 * Returns 0 or CLI_EXIT_USAGE (out of memory, reported). */
int inspect_print_metadata(FILE *out, const sp_results *r, const inspect_options *o);

/* One "    key   : " of the metadata section, the key padded (or cut with "…") to width. */
void inspect_meta_key(FILE *out, const char *key, size_t width);

/* A metadata value after its key, clipped to fit (unless --full); 0 when out of memory. */
int inspect_meta_value(FILE *out, const sp_metadata_item *it, size_t width,
                       const inspect_options *o);

/* Whether a metadata key is the user's (sp_set_metadata, SCOPE_PROFILER_METADATA_*,
 * run --meta, a Python package's extra field): not one the library writes. */
int inspect_user_key(const char *key);

/* The "User (N)" group of the metadata section (inspect_user.c): key column as wide as its
 * longest key or the other groups' `width`, narrowed to leave the values room in a fitted
 * output. 0 when out of memory. */
int inspect_print_user(FILE *out, const sp_metadata_item *items, size_t n, size_t width,
                       const inspect_options *o);

/* The summary table titled "Regions (N)" with its notes. Returns 0 or an
 * exit code after printing the error. */
int inspect_print_regions(FILE *out, const sp_results *r, const inspect_options *o);

/* The "Threads (N)" section (rank, thread, name, native id, wall, CPU, calls,
 * time in regions) when some rank recorded from several threads. */
void inspect_print_threads(FILE *out, const sp_results *r, const inspect_options *o);

/* The "Source (N)" section for the names of --source. */
void inspect_print_source(FILE *out, const sp_results *r, const inspect_options *o);

/* The "Load balance" section of files with several ranks: per region the
 * rank imbalance, slowest rank and the step comparison (docs/parallel.md). */
void inspect_print_balance(FILE *out, const sp_results *r, const inspect_options *o);

/* The "MPI calls" section of files recorded with the PMPI wrappers: per
 * wrapped call its calls, time and bytes (docs/parallel.md §5). */
void inspect_print_mpi_calls(FILE *out, const sp_results *r, const inspect_options *o);
/* Who waits for whom, for MPI files with peer records (inspect_waits.c). */
void inspect_print_waits(FILE *out, const char *path, const inspect_options *o);
/* The wait states of a file with peer records, NULL without (kept until
 * another file is asked for). */
struct sp_waits;
const struct sp_waits *inspect_waits_for(const char *path);
/* Attaches those waits to r (several ranks), or marks them unknown for a
 * file with MPI calls but no peer records: the balances then name the
 * slowest rank by its time outside MPI waits (docs/parallel.md §2). */
void inspect_attach_waits(const sp_results *r, const char *path);

/* --balance --format json: sp_write_balance_json. Returns 0 or an exit code. */
int inspect_print_balance_json(FILE *out, const sp_results *r, const inspect_options *o);

/* The summary rows as JSON or CSV (--format). Returns 0 or an exit code. */
int inspect_print_rows(FILE *out, const sp_results *r, const inspect_options *o);

#endif
