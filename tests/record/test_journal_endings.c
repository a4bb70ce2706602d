/*
 * Recording v2 (issue 15): what each way a run can end leaves behind.
 * A child records nested regions and stops at a random moment (in the middle
 * of open calls), tells the parent through a pipe how many calls of each
 * region it completed, and then ends: SIGKILL, SIGTERM, abort() or exit()
 * without sp_finalize. `scope-profiler recover` (or the profile exit()
 * wrote) must hold exactly those calls.
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include <cmocka.h>
#include <scope_profiler.h>

#include "record_support.h"

#ifndef SP_CLI_PATH
#error "SP_CLI_PATH must name the scope-profiler binary"
#endif

typedef enum ending {
    END_SIGKILL,
    END_SIGTERM,
    END_SIGTERM_CHAINED,
    END_ABORT,
    END_EXIT,
    END_PTHREAD_EXIT
} ending;

/* The calls a child completed, per region. */
typedef struct counts {
    int64_t outer, inner, leaf;
} counts;

static uint64_t rng_state = 20261201;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w <= 0) _exit(90);
        c += w;
        n -= (size_t)w;
    }
}

static int pipe_fd = -1;
static void program_handler(int sig) { /* the program's own SIGTERM handler */
    (void)sig;
    char byte = 'H';
    write_all(pipe_fd, &byte, 1);
    _exit(3);
}

/* Records until `target` calls have completed, reports, then ends as told. */
static void child(const char *out, int64_t target, ending how, int fd) {
    pipe_fd = fd;
    if (how == END_SIGTERM_CHAINED) signal(SIGTERM, program_handler);
    if (how == END_PTHREAD_EXIT) {
        /* the table and threaded compression in the exit handler, and the
         * populate-ahead helper alive: the exit handler may run on it */
        setenv("SCOPE_PROFILER_QUIET", "0", 1);
        setenv("SCOPE_PROFILER_COMPRESSION", "gzip", 1);
        setenv("SCOPE_PROFILER_POPULATE_AHEAD", "1", 1);
        freopen("/dev/null", "w", stdout);
    }
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = out;
    if (sp_setup(&opt) != SP_OK) _exit(91);
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner"), leaf = sp_region("leaf");
    counts c = {0, 0, 0};
#define DONE() (c.outer + c.inner + c.leaf >= target)
    for (;;) {
        sp_begin(outer);
        sp_begin(inner);
        sp_begin(leaf);
        sp_end(leaf);
        c.leaf++;
        if (DONE()) break;
        sp_end(inner);
        c.inner++;
        if (DONE()) break;
        sp_begin(leaf);
        sp_end(leaf);
        c.leaf++;
        if (DONE()) break;
        sp_end(outer);
        c.outer++;
        if (DONE()) break;
    }
    write_all(fd, &c, sizeof c);
    switch (how) {
    case END_ABORT:
        abort();
    case END_EXIT:
        freopen("/dev/null", "w", stdout);
        exit(0);
    case END_PTHREAD_EXIT: /* the process ends when its last thread does */
#ifdef __SANITIZE_ADDRESS__
        /* the harness's memory is reachable only from main's stack, which
         * pthread_exit() discards: check for leaks now, not at exit */
        __lsan_do_leak_check();
#endif
        pthread_exit(NULL);
    default:
        for (;;)
            pause();
    }
}

static int read_all(int fd, void *p, size_t n) {
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r <= 0) return 0;
        c += r;
        n -= (size_t)r;
    }
    return 1;
}

/* The one journal in dir, or NULL. */
static char *find_journal(const char *dir) {
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/*.journal-*", dir);
    glob_t g;
    char *path = NULL;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == 0 && g.gl_pathc == 1) path = strdup(g.gl_pathv[0]);
    if (rc == 0) globfree(&g);
    return path;
}

static int run_quiet(const char *cmd) {
    char full[16384];
    snprintf(full, sizeof full, "%s 2>/dev/null", cmd);
    return system(full);
}

static void check_profile(const char *path, const counts *c) {
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "outer") < 0 ? 0 : rs_calls_of(&p, "outer"), c->outer);
    assert_int_equal(rs_calls_of(&p, "inner") < 0 ? 0 : rs_calls_of(&p, "inner"), c->inner);
    assert_int_equal(rs_calls_of(&p, "leaf") < 0 ? 0 : rs_calls_of(&p, "leaf"), c->leaf);
    rs_profile_free(&p);
}

/* One run: fork, stop at target, end as told, then check what is left. */
static void one_run(const char *dir, int64_t target, ending how) {
    char out[4096], recovered[4096];
    snprintf(out, sizeof out, "%s/run.h5", dir);
    snprintf(recovered, sizeof recovered, "%s/recovered.h5", dir);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child(out, target, how, fds[1]);
        _exit(92);
    }
    close(fds[1]);
    counts c;
    assert_true(read_all(fds[0], &c, sizeof c));
    if (how == END_SIGKILL) kill(pid, SIGKILL);
    if (how == END_SIGTERM || how == END_SIGTERM_CHAINED) kill(pid, SIGTERM);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char byte = 0;
    ssize_t extra = read(fds[0], &byte, 1);
    close(fds[0]);
    assert_int_equal(c.outer + c.inner + c.leaf, target);
    switch (how) {
    case END_SIGKILL:
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        break;
    case END_SIGTERM: /* the default action still happens */
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
        break;
    case END_SIGTERM_CHAINED: /* the program's handler ran */
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
        assert_int_equal(extra, 1);
        assert_int_equal(byte, 'H');
        break;
    case END_ABORT:
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
        break;
    case END_EXIT:
    case END_PTHREAD_EXIT:
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        break;
    }
    char *journal = find_journal(dir);
    if (how == END_EXIT || how == END_PTHREAD_EXIT) { /* the exit handler wrote the profile and
                                                          removed the journal */
        assert_null(journal);
        free(journal);
        check_profile(out, &c);
        unlink(out);
        return;
    }
    assert_non_null(journal);
    char cmd[12288];
    snprintf(cmd, sizeof cmd, "'%s' recover '%s' -o '%s'", SP_CLI_PATH, journal, recovered);
    assert_int_equal(run_quiet(cmd), 0);
    check_profile(recovered, &c);
    /* the calls open at the stop (outer, inner, leaf, leaf and outer end in turn),
     * not counting the session root */
    static const int open_after[4] = {0, 2, 1, 1};
    int open = open_after[target % 4];
    if (open)
        snprintf(cmd, sizeof cmd, "'%s' recover '%s' -o '%s' 2>&1 | grep -q '^scope-profiler: %d call(s) still open'",
                 SP_CLI_PATH, journal, recovered, open);
    else
        snprintf(cmd, sizeof cmd, "! '%s' recover '%s' -o '%s' 2>&1 | grep -q 'still open'",
                 SP_CLI_PATH, journal, recovered);
    assert_int_equal(run_quiet(cmd), 0);
    if (how != END_SIGKILL) { /* the journal knows the signal */
        snprintf(cmd, sizeof cmd, "'%s' metadata '%s' | grep -q 'signal %d'", SP_CLI_PATH,
                 recovered, how == END_ABORT ? SIGABRT : SIGTERM);
        assert_int_equal(run_quiet(cmd), 0);
    }
    unlink(journal);
    unlink(recovered);
    free(journal);
}

static void test_sigkill_at_20_random_moments(void **state) {
    rs_fixture *f = *state;
    for (int i = 0; i < 20; i++)
        one_run(f->dir, 1 + (int64_t)(next_random() % 300000), END_SIGKILL);
}

static void test_sigterm_leaves_a_journal(void **state) {
    rs_fixture *f = *state;
    for (int i = 0; i < 4; i++)
        one_run(f->dir, 1 + (int64_t)(next_random() % 100000), END_SIGTERM);
    one_run(f->dir, 777, END_SIGTERM_CHAINED);
}

static void test_abort_leaves_a_journal(void **state) {
    rs_fixture *f = *state;
    for (int i = 0; i < 3; i++)
        one_run(f->dir, 1 + (int64_t)(next_random() % 100000), END_ABORT);
}

static void test_exit_without_finalize_writes_the_profile(void **state) {
    rs_fixture *f = *state;
    for (int i = 0; i < 3; i++)
        one_run(f->dir, 1 + (int64_t)(next_random() % 100000), END_EXIT);
}

/* main() ends with pthread_exit(): the exit handlers run on the last thread
 * to end (here often the populate-ahead helper), after glibc's thread count
 * reached zero; 300,000 calls make the file compress in chunks. */
static void test_pthread_exit_without_finalize_writes_the_profile(void **state) {
    rs_fixture *f = *state;
    one_run(f->dir, 300000, END_PTHREAD_EXIT);
    one_run(f->dir, 1 + (int64_t)(next_random() % 300000), END_PTHREAD_EXIT);
}

/* A normal finalize leaves the profile and no journal. */
static void test_finalize_removes_the_journal(void **state) {
    rs_fixture *f = *state;
    pid_t pid = fork();
    if (pid == 0) {
        sp_options opt = SP_OPTIONS_INIT;
        opt.file_path = f->path;
        opt.journal = SP_JOURNAL_ON;
        sp_setup(&opt);
        char *journal = find_journal(f->dir);
        SP_REGION("work") {}
        sp_finalize_options quiet = {.quiet = 1};
        char *left = NULL;
        int ok = journal != NULL && sp_finalize(&quiet) == SP_OK &&
                 (left = find_journal(f->dir)) == NULL;
        free(journal);
        free(left);
        _exit(ok ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    counts none = {0, 0, 0};
    check_profile(f->path, &none);
}

/* SCOPE_PROFILER_JOURNAL=0: memory only, no file beside the output. */
static void test_journal_off_writes_no_journal(void **state) {
    rs_fixture *f = *state;
    setenv("SCOPE_PROFILER_JOURNAL", "0", 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    opt.journal = SP_JOURNAL_ON; /* the variable wins */
    assert_int_equal(sp_setup(&opt), SP_OK);
    char *journal = find_journal(f->dir);
    assert_null(journal);
    SP_REGION("work") {}
    free(journal);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    unsetenv("SCOPE_PROFILER_JOURNAL");
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "work"), 1);
    rs_profile_free(&p);
}

/* fork(): the child records nothing of its own until sp_setup; the parent keeps all. */
static void test_fork_child_is_disabled(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region("parent");
    for (int i = 0; i < 1000; i++) {
        sp_begin(h);
        sp_end(h);
    }
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 500; i++) {
            sp_begin(h);
            sp_end(h);
        }
        int ok = !sp_is_active() && sp_finalize(NULL) == SP_ERR_NOT_ACTIVE;
        _exit(ok ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (int i = 0; i < 1000; i++) {
        sp_begin(h);
        sp_end(h);
    }
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "parent"), 2000);
    rs_profile_free(&p);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sigkill_at_20_random_moments, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_sigterm_leaves_a_journal, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_abort_leaves_a_journal, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_exit_without_finalize_writes_the_profile, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_finalize_removes_the_journal, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_journal_off_writes_no_journal, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_fork_child_is_disabled, rs_setup_dir, rs_teardown_dir),
    };
    /* its own ctest entry: valgrind sees the harness's memory lost when the
     * child's main() ends with pthread_exit() (scripts/memcheck leaves it out) */
    const struct CMUnitTest pthread_exit_only[] = {
        cmocka_unit_test_setup_teardown(test_pthread_exit_without_finalize_writes_the_profile,
                                        rs_setup_dir, rs_teardown_dir),
    };
    if (argc > 1 && strcmp(argv[1], "--pthread-exit") == 0)
        return cmocka_run_group_tests(pthread_exit_only, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
