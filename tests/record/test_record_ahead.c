/*
 * Blocks populated ahead (issue 15): a helper thread takes and populates a
 * recording thread's next block while it fills the current one. Every call
 * is kept (journal and memory, several threads, a SIGKILL while the helper
 * works), the helper blocks the signals batch systems send, it ends with the
 * session, fork() in the middle of its work leaves parent and child sound, a
 * main thread that calls pthread_exit() without sp_finalize still ends the
 * process, and SCOPE_PROFILER_POPULATE_AHEAD=0 starts no helper.
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "record_support.h"

#ifndef SP_CLI_PATH
#error "SP_CLI_PATH must name the scope-profiler binary"
#endif

#define HELPER_NAME "scope-prof-bg"

/* The helper thread's id, or 0 when the process has none. */
static long helper_tid(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    long found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, HELPER_NAME, strlen(HELPER_NAME)) == 0)
            found = atol(e->d_name);
        fclose(f);
    }
    closedir(d);
    return found;
}

/* Polls for up to `seconds` until the helper exists (want = 1) or not (0). */
static int helper_becomes(int want, double seconds) {
    int64_t until = rs_now_ns() + (int64_t)(seconds * 1e9);
    do {
        if ((helper_tid() != 0) == want) return 1;
        usleep(10000);
    } while (rs_now_ns() < until);
    return 0;
}

static void start(const rs_fixture *f, int journal) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.journal = journal ? SP_JOURNAL_ON : SP_JOURNAL_OFF;
    assert_int_equal(sp_setup(&opt), SP_OK);
}

static void finish(void) {
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
}

static int64_t calls_in(const char *path, const char *name) {
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    int64_t n = rs_calls_of(&p, name);
    rs_profile_free(&p);
    return n;
}

static void record(sp_region_t h, long n) {
    for (long i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
}

/* 16 bytes a call: 1.5 M calls fill 12 blocks of 2 MiB */
#define MANY 1500000L

static void *record_many(void *arg) {
    record(*(sp_region_t *)arg, MANY);
    return NULL;
}

/* Two threads, many blocks each: every call in the file, the helper at work. */
static void keeps_every_call(const rs_fixture *f, int journal) {
    start(f, journal);
    sp_region_t a = sp_region("thread_a"), b = sp_region("thread_b");
    pthread_t other;
    assert_int_equal(pthread_create(&other, NULL, record_many, &b), 0);
    record(a, MANY);
    assert_int_equal(pthread_join(other, NULL), 0);
    assert_true(helper_tid() != 0);
    finish();
    assert_int_equal(calls_in(f->path, "thread_a"), MANY);
    assert_int_equal(calls_in(f->path, "thread_b"), MANY);
}

static void test_keeps_every_call_in_memory(void **state) {
    keeps_every_call(*state, 0);
}

static void test_keeps_every_call_in_journal(void **state) {
    keeps_every_call(*state, 1);
}

static int blocked(const char *sigblk_hex, int sig) {
    unsigned long long mask = strtoull(sigblk_hex, NULL, 16);
    return (int)((mask >> (sig - 1)) & 1u);
}

/* The program's handlers never run on the helper; it ends with the session. */
static void test_helper_blocks_signals_and_ends(void **state) {
    start(*state, 1);
    record(sp_region("signals"), MANY);
    long tid = helper_tid();
    assert_true(tid != 0);
    char path[64], line[256], mask[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%ld/status", tid);
    FILE *status = fopen(path, "r");
    assert_non_null(status);
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "SigBlk: %63s", mask) == 1) break;
    fclose(status);
    const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGXCPU, SIGALRM, SIGCHLD};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        assert_true(blocked(mask, signals[i]));
    finish();
    assert_true(helper_becomes(0, 5.0));
}

/* No helper when the environment says so; the calls are all there. */
static void test_switched_off(void **state) {
    rs_fixture *f = *state;
    assert_true(helper_becomes(0, 5.0));
    setenv("SCOPE_PROFILER_POPULATE_AHEAD", "0", 1);
    start(f, 1);
    record(sp_region("off"), MANY);
    assert_int_equal(helper_tid(), 0);
    finish();
    setenv("SCOPE_PROFILER_POPULATE_AHEAD", "1", 1);
    assert_int_equal(calls_in(f->path, "off"), MANY);
}

/* fork() while the helper populates: the child may record a session of its
 * own (with its own helper), the parent keeps every call. */
static void test_fork_while_populating(void **state) {
    rs_fixture *f = *state;
    start(f, 1);
    sp_region_t h = sp_region("parent");
    for (int round = 0; round < 8; round++) {
        record(h, 200000);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int ok = !sp_is_active();
            char path[4096];
            snprintf(path, sizeof path, "%s.child%d.h5", f->path, round);
            sp_options opt = SP_OPTIONS_INIT;
            opt.file_path = path;
            sp_finalize_options quiet = {.quiet = 1};
            ok = ok && sp_setup(&opt) == SP_OK;
            record(sp_region("child"), 300000);
            ok = ok && sp_finalize(&quiet) == SP_OK;
            _exit(ok ? 0 : 1);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        char path[4096];
        snprintf(path, sizeof path, "%s.child%d.h5", f->path, round);
        assert_int_equal(calls_in(path, "child"), 300000);
        assert_int_equal(calls_in(path, "parent"), 0);
        unlink(path);
    }
    finish();
    assert_int_equal(calls_in(f->path, "parent"), 8 * 200000);
}

/* The main thread ends with pthread_exit() and no sp_finalize: the helper
 * does not keep the process alive (it ends a second after its last job). */
static void test_pthread_exit_ends_the_process(void **state) {
    rs_fixture *f = *state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 2); /* the exit handler's warning */
        setenv("SCOPE_PROFILER_QUIET", "1", 1);
        sp_options opt = SP_OPTIONS_INIT;
        opt.file_path = f->path;
        if (sp_setup(&opt) != SP_OK) _exit(1);
        record(sp_region("main"), MANY);
        pthread_exit(NULL);
    }
    int64_t t0 = rs_now_ns();
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    double seconds = (double)(rs_now_ns() - t0) / 1e9;
    print_message("the process ended %.2f s after recording began\n", seconds);
    assert_true(seconds < 30.0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* SIGKILL while the helper populates the next block: recover keeps exactly
 * the calls completed before the kill (spare blocks hold no calls). */
static void test_killed_while_populating(void **state) {
    rs_fixture *f = *state;
    for (int round = 0; round < 4; round++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            sp_options opt = SP_OPTIONS_INIT;
            opt.file_path = f->path;
            opt.journal = SP_JOURNAL_ON;
            if (sp_setup(&opt) != SP_OK) _exit(1);
            record(sp_region("done"), MANY + round * 100003L);
            char byte = 'D';
            if (write(fds[1], &byte, 1) != 1) _exit(2);
            sp_region_t more = sp_region("more");
            for (;;) /* the helper keeps populating until the kill */
                record(more, 1000);
        }
        close(fds[1]);
        char byte = 0;
        assert_int_equal(read(fds[0], &byte, 1), 1);
        close(fds[0]);
        usleep(1000u * (unsigned)(round * 7 % 20));
        kill(pid, SIGKILL);
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        char pattern[4096], recovered[4096], cmd[12288];
        snprintf(pattern, sizeof pattern, "%s.journal-*", f->path);
        glob_t g;
        assert_int_equal(glob(pattern, 0, NULL, &g), 0);
        assert_int_equal(g.gl_pathc, 1);
        snprintf(recovered, sizeof recovered, "%s/recovered.h5", f->dir);
        snprintf(cmd, sizeof cmd, "'%s' recover '%s' -o '%s' >/dev/null 2>&1", SP_CLI_PATH,
                 g.gl_pathv[0], recovered);
        assert_int_equal(system(cmd), 0);
        unlink(g.gl_pathv[0]);
        globfree(&g);
        assert_int_equal(calls_in(recovered, "done"), MANY + round * 100003L);
        unlink(recovered);
    }
}

int main(int argc, char **argv) {
    unsetenv("SCOPE_PROFILER_JOURNAL");
    setenv("SCOPE_PROFILER_POPULATE_AHEAD", "1", 1); /* also where only one CPU is ours */
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest threads[] = {
        cmocka_unit_test_setup_teardown(test_keeps_every_call_in_memory, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_keeps_every_call_in_journal, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_helper_blocks_signals_and_ends, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_switched_off, rs_setup_dir, rs_teardown_dir),
    };
    /* fork() with the helper running: ThreadSanitizer cannot follow a child
     * that starts threads, so these run only in `test_record_ahead` itself */
    const struct CMUnitTest processes[] = {
        cmocka_unit_test_setup_teardown(test_fork_while_populating, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_killed_while_populating, rs_setup_dir,
                                        rs_teardown_dir),
    };
    /* a test of its own, out of the memcheck run: the child ends in its
     * exit handler's finalize and leaves the test harness's memory behind
     * (test_journal_endings checks the profile such an ending writes) */
    const struct CMUnitTest pthread_exit_only[] = {
        cmocka_unit_test_setup_teardown(test_pthread_exit_ends_the_process, rs_setup_dir,
                                        rs_teardown_dir),
    };
    if (argc > 1 && strcmp(argv[1], "--pthread-exit") == 0)
        return cmocka_run_group_tests(pthread_exit_only, NULL, NULL);
    int failed = cmocka_run_group_tests(threads, NULL, NULL);
    if (argc > 1 && strcmp(argv[1], "--threads-only") == 0) return failed;
    return failed + cmocka_run_group_tests(processes, NULL, NULL);
}
