/*
 * Memory of threads that ended is reused (issue 22 item 4): 20,000
 * short-lived threads with 10 calls each, one after another. Before, each
 * kept a 256 KiB block to itself (10,000 threads: 2.6 GB resident; 20,000:
 * a 3.3 GB journal); now the next thread's chunks are carved from the room
 * the last one left. Resident growth and the journal's size are bounded per
 * thread, and every call is in the profile.
 */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "record_support.h"

#define THREADS 20000
#define CALLS   10
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RSS_BOUND (48 * 1024) /* the sanitizer's own bookkeeping per thread (15 KiB measured) */
#else
#define RSS_BOUND (12 * 1024)
#endif

static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n)) kib = atol(line + n + 1);
    if (f) fclose(f);
    return kib;
}

static long long journal_bytes(const char *dir) {
    DIR *d = opendir(dir);
    long long total = -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strstr(e->d_name, ".journal-")) continue;
        char *p = rs_path_in(dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) == 0) total = (long long)sb.st_blocks * 512; /* what it takes on disk */
        free(p);
    }
    if (d) closedir(d);
    return total;
}

static void *short_lived(void *arg) {
    (void)arg;
    sp_region_t h = sp_region("work");
    for (int i = 0; i < CALLS; i++) {
        sp_begin(h);
        sp_end(h);
    }
    return NULL;
}

static void run_threads(int n) {
    for (int i = 0; i < n; i++) {
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, short_lived, NULL), 0);
        assert_int_equal(pthread_join(t, NULL), 0);
    }
}

static void ended_threads_give_their_room_to_the_next(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.journal = SP_JOURNAL_ON;
    assert_int_equal(sp_setup(&opt), SP_OK);
    run_threads(2); /* what two threads cost */
    long rss_two = status_kib("VmRSS:");
    long long journal_two = journal_bytes(f->dir);
    run_threads(THREADS - 2);
    long rss_all = status_kib("VmRSS:");
    long long journal_all = journal_bytes(f->dir);
    double rss_per_thread = (double)(rss_all - rss_two) * 1024.0 / THREADS;
    double journal_per_thread = (double)(journal_all - journal_two) / THREADS;
    fprintf(stderr,
            "%d threads x %d calls: resident %ld -> %ld KiB (%.0f bytes a thread), journal %lld "
            "-> %lld bytes (%.0f bytes a thread)\n",
            THREADS, CALLS, rss_two, rss_all, rss_per_thread, journal_two, journal_all,
            journal_per_thread);
    /* a thread's record (about 5 KiB: its discard slots, rows, name) and its chunk
     * (16 slots) remain; before, 256 KiB each */
    assert_true(rss_per_thread < RSS_BOUND);
    assert_true(journal_per_thread < 2 * 1024);
    sp_finalize_options fo = {.quiet = 1};
    assert_int_equal(sp_finalize(&fo), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "work"), (int64_t)THREADS * CALLS);
    rs_profile_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ended_threads_give_their_room_to_the_next, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
