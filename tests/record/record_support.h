/*
 * Helpers shared by the recording tests: temporary directories, busy waits,
 * stderr capture and per-region views of a written profile.
 */
#ifndef SP_TEST_RECORD_SUPPORT_H
#define SP_TEST_RECORD_SUPPORT_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* A fresh directory under $TMPDIR (or /tmp); path of a file inside it. */
char *rs_temp_dir(void);
char *rs_path_in(const char *dir, const char *name);
void rs_remove_tree(const char *dir);

/* A cmocka fixture: a fresh directory and a profile path inside it. The
 * teardown removes the directory (after making it writable again). */
typedef struct rs_fixture {
    char *dir;
    char *path;
} rs_fixture;
int rs_setup_dir(void **state);
int rs_teardown_dir(void **state);

/* Spins until `ns` nanoseconds of CLOCK_MONOTONIC have passed. */
void rs_busy_wait_ns(int64_t ns);
int64_t rs_now_ns(void);

/* Redirects stderr into a buffer between begin and end (returns malloc'ed text). */
void rs_capture_stderr_begin(void);
char *rs_capture_stderr_end(void);

/* Counts occurrences of needle in haystack. */
int rs_count(const char *haystack, const char *needle);

/* A written profile, read with the plain HDF5 API. */
typedef struct rs_profile {
    size_t num_regions;
    char **names;
    size_t num_rows;
    int64_t *region_ids, *ranks, *offsets, *counts, *source_lines;
    char **source_files, **source_texts;
    size_t num_events;
    int64_t *starts, *durations, *thread_ids; /* thread_ids NULL when absent */
} rs_profile;

int rs_profile_load(const char *path, rs_profile *p);
void rs_profile_free(rs_profile *p);
/* Row index of a region name (rank 0), or -1. */
long rs_row_of(const rs_profile *p, const char *name);
int64_t rs_calls_of(const rs_profile *p, const char *name);

#endif
