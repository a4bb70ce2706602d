/*
 * Two runs finishing at one moment on one new path (issue 22 item 2): of
 * 4 to 16 processes that finalize together, on a path where nothing was at
 * sp_setup, each must publish its own file (the first the path, the others
 * NAME.2.h5, NAME.3.h5, ...), and none may replace another's. Process i
 * records i + 1 calls, so every file names its writer. 200 rounds; the
 * rounds stop early after SP_RACE_SECONDS (default 60) to bound the time.
 * Then the same for a path that held a file at sp_setup (plain reruns).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "../record/record_support.h"

#define ROUNDS    200
#define MAX_PROCS 16

/* One process of the race: says it is set up on `ready`, waits on `go`,
 * finalizes, reports its path on `out`. */
static void racer(const char *path, int calls, int ready, int go, int out) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.journal = SP_JOURNAL_OFF;
    if (sp_setup(&opt) != SP_OK) _exit(3);
    sp_region_t h = sp_region("work");
    for (int i = 0; i < calls; i++) {
        sp_begin(h);
        sp_end(h);
    }
    /* every racer's sp_setup precedes every finalize: a process set up after
     * another published would see a file there and rightly replace it (a rerun) */
    if (write(ready, "r", 1) != 1) _exit(6);
    char byte;
    if (read(go, &byte, 1) != 0) _exit(4); /* EOF: everyone goes at once */
    sp_finalize_options fo = {.quiet = 1};
    sp_status st = sp_finalize(&fo);
    const char *saved = sp_output_path();
    if (write(out, saved, strlen(saved)) < 0) _exit(5);
    _exit(st == SP_OK ? 0 : 10 + (int)st);
}

static int64_t calls_in(const char *path) {
    sp_error err;
    sp_results *r = sp_read(path, &err);
    if (!r) return -1;
    const sp_mpi_region *work = sp_results_get(r, "work", &err);
    int64_t n = work ? (int64_t)sp_mpi_region_num_calls(work) : -1;
    sp_results_free(r);
    return n;
}

static int count_profiles(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, ".h5") != NULL && strstr(e->d_name, ".tmp") == NULL;
    if (d) closedir(d);
    return n;
}

/* One round: n processes on `path`; every one must keep its calls in its own file. */
static void race_round(const char *dir, const char *path, int n, int existed) {
    int go[2], ready[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    int out[MAX_PROCS];
    pid_t pids[MAX_PROCS];
    for (int i = 0; i < n; i++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            close(go[1]);
            close(p[0]);
            close(ready[0]);
            racer(path, i + 1, ready[1], go[0], p[1]);
        }
        close(p[1]);
        out[i] = p[0];
    }
    close(go[0]);
    close(ready[1]);
    char byte;
    for (int i = 0; i < n; i++) /* every process is set up */
        assert_int_equal(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    usleep(20000); /* let every process reach its read */
    close(go[1]);
    char seen[MAX_PROCS][4096];
    for (int i = 0; i < n; i++) {
        ssize_t got = read(out[i], seen[i], sizeof seen[i] - 1), more;
        while (got >= 0 && (more = read(out[i], seen[i] + got, sizeof seen[i] - 1 - got)) > 0)
            got += more;
        close(out[i]);
        seen[i][got > 0 ? got : 0] = '\0';
        int status = 0;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("process %d of %d: status %d", i, n, status);
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (!strcmp(seen[i], seen[j]))
                fail_msg("%d processes: %d and %d both claim %s", n, j, i, seen[i]);
        int64_t calls = calls_in(seen[i]);
        if (calls != i + 1)
            fail_msg("%d processes: %s holds %lld calls, process %d wrote %d", n, seen[i],
                     (long long)calls, i, i + 1);
    }
    assert_int_equal(count_profiles(dir), n + existed);
}

static void run_rounds(rs_fixture *fx, int existed) {
    const char *limit = getenv("SP_RACE_SECONDS");
    int64_t stop = rs_now_ns() + (int64_t)(limit ? atof(limit) : 60.0) * 1000000000;
    int rounds = 0;
    /* at least 20 rounds, however loaded the machine (18 took 60 s under ASan at load 26) */
    for (; rounds < ROUNDS && (rounds < 20 || rs_now_ns() < stop); rounds++) {
        char name[64];
        snprintf(name, sizeof name, "round%d", rounds);
        char *dir = rs_path_in(fx->dir, name);
        assert_int_equal(mkdir(dir, 0700), 0);
        char *path = rs_path_in(dir, "run.h5");
        if (existed) {
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs("the run before", f);
            fclose(f);
        }
        race_round(dir, path, 4 + rounds % 13, 0);
        free(path);
        rs_remove_tree(dir);
        free(dir);
    }
    fprintf(stderr, "%d rounds of 4-16 processes (%s path)\n", rounds,
            existed ? "an existing" : "a new");
    assert_true(rounds >= 20);
}

static void simultaneous_finishers_on_a_new_path(void **state) {
    run_rounds(*state, 0);
}

static void simultaneous_finishers_replacing_a_file(void **state) {
    run_rounds(*state, 1);
}

/* Replacing another user's profile keeps its owner and mode (issue 22, smaller items). */
static void replacing_keeps_owner_and_mode(void **state) {
    rs_fixture *fx = *state;
    FILE *f = fopen(fx->path, "w");
    assert_non_null(f);
    fputs("another user's run", f);
    fclose(f);
    assert_int_equal(chmod(fx->path, 0640), 0);
    int root = geteuid() == 0;
    if (root) assert_int_equal(chown(fx->path, 4321, 4322), 0);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region("work");
    sp_begin(h);
    sp_end(h);
    sp_finalize_options fo = {.quiet = 1};
    assert_int_equal(sp_finalize(&fo), SP_OK);
    assert_int_equal(calls_in(fx->path), 1);
    struct stat sb;
    assert_int_equal(stat(fx->path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    if (root) {
        assert_int_equal(sb.st_uid, 4321);
        assert_int_equal(sb.st_gid, 4322);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(replacing_keeps_owner_and_mode, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(simultaneous_finishers_on_a_new_path, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(simultaneous_finishers_replacing_a_file, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
