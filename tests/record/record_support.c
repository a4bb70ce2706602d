#include "record_support.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/h5_inspect.h"

char *rs_temp_dir(void) {
    const char *base = getenv("TMPDIR");
    char *dir = malloc(4096);
    snprintf(dir, 4096, "%s/sp_test_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

char *rs_path_in(const char *dir, const char *name) {
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void rs_remove_tree(const char *dir) {
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int rs_setup_dir(void **state) {
    rs_fixture *f = calloc(1, sizeof *f);
    f->dir = rs_temp_dir();
    f->path = rs_path_in(f->dir, "profile.h5");
    *state = f;
    return f->dir ? 0 : -1;
}

int rs_teardown_dir(void **state) {
    rs_fixture *f = *state;
    chmod(f->dir, 0700);
    rs_remove_tree(f->dir);
    free(f->dir);
    free(f->path);
    free(f);
    return 0;
}

int64_t rs_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rs_busy_wait_ns(int64_t ns) {
    int64_t end = rs_now_ns() + ns;
    while (rs_now_ns() < end) {
    }
}

static int saved_stderr = -1;
static char capture_path[64];

void rs_capture_stderr_begin(void) {
    fflush(stderr);
    snprintf(capture_path, sizeof capture_path, "/tmp/sp_stderr_XXXXXX");
    int fd = mkstemp(capture_path);
    saved_stderr = dup(2);
    dup2(fd, 2);
    close(fd);
}

char *rs_capture_stderr_end(void) {
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    FILE *f = fopen(capture_path, "rb");
    char *text = calloc(1, 1 << 16);
    if (f) {
        size_t n = fread(text, 1, (1 << 16) - 1, f);
        text[n] = '\0';
        fclose(f);
    }
    unlink(capture_path);
    return text;
}

int rs_count(const char *haystack, const char *needle) {
    int n = 0;
    for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

int rs_profile_load(const char *path, rs_profile *p) {
    memset(p, 0, sizeof *p);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return -1;
    size_t n;
    p->names = h5i_read_strings(f, "/region_table/names", &p->num_regions);
    p->region_ids = h5i_read_int64(f, "/rank_region_index/region_ids", &p->num_rows);
    p->ranks = h5i_read_int64(f, "/rank_region_index/ranks", &n);
    p->offsets = h5i_read_int64(f, "/rank_region_index/event_offsets", &n);
    p->counts = h5i_read_int64(f, "/rank_region_index/event_counts", &n);
    p->source_lines = h5i_read_int64(f, "/rank_region_index/source_lines", &n);
    p->source_files = h5i_read_strings(f, "/rank_region_index/source_files", &n);
    p->source_texts = h5i_read_strings(f, "/rank_region_index/source_texts", &n);
    p->durations = h5i_read_int64(f, "/events/durations", &p->num_events);
    p->starts = h5i_decode_starts(f, &n);
    p->thread_ids = h5i_read_int64(f, "/events/thread_ids", &n);
    H5Fclose(f);
    return 0;
}

void rs_profile_free(rs_profile *p) {
    h5i_free_strings(p->names, p->num_regions);
    h5i_free_strings(p->source_files, p->num_rows);
    h5i_free_strings(p->source_texts, p->num_rows);
    free(p->region_ids);
    free(p->ranks);
    free(p->offsets);
    free(p->counts);
    free(p->source_lines);
    free(p->durations);
    free(p->starts);
    free(p->thread_ids);
    memset(p, 0, sizeof *p);
}

long rs_row_of(const rs_profile *p, const char *name) {
    for (size_t r = 0; r < p->num_rows; r++)
        if (strcmp(p->names[p->region_ids[r]], name) == 0) return (long)r;
    return -1;
}

int64_t rs_calls_of(const rs_profile *p, const char *name) {
    long r = rs_row_of(p, name);
    return r < 0 ? 0 : p->counts[r];
}
