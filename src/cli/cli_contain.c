#include "cli/cli_contain.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_error.h"

#define DEFAULT_TIMEOUT_S 600.0
#define NOTE_SIZE         4096

/* Shared with the child: the file it is reading (empty between files). */
static char *reading_note;

void cli_reading(const char *path) {
    if (!reading_note) return;
    snprintf(reading_note, NOTE_SIZE, "%s", path ? path : "");
    if (getenv("SCOPE_PROFILER_TEST_CRASH_READING")) raise(SIGSEGV); /* tests only */
    if (getenv("SCOPE_PROFILER_TEST_HANG_READING"))
        for (;;)
            pause();
}

static double timeout_seconds(void) {
    const char *v = getenv("SCOPE_PROFILER_CLI_TIMEOUT");
    if (!v || !*v) return DEFAULT_TIMEOUT_S;
    char *end;
    double t = strtod(v, &end);
    if (*end || t < 0) {
        cli_warn("ignoring SCOPE_PROFILER_CLI_TIMEOUT=\"%s\": expected seconds (0 = no limit)", v);
        return DEFAULT_TIMEOUT_S;
    }
    return t;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *what_was_read(void) {
    return reading_note && reading_note[0] ? reading_note : "the input";
}

/*
 * The child's stderr, when it is not a terminal, comes through a pipe with its
 * last line held back: a child that crashes inside the C library or libhdf5
 * prints its own dying words ("free(): invalid pointer") just before the
 * signal, and the user should get one clear line instead. On a crash only our
 * own "scope-profiler: " lines are passed on. (On a terminal glibc writes to
 * /dev/tty itself, so the pipe would not help, and progress needs the tty.)
 */
typedef struct relay {
    int fd;
    char *buf;
    size_t len, cap;
} relay;

static void relay_read(relay *r) {
    for (;;) {
        if (r->cap - r->len < 4096) {
            size_t cap = r->cap ? 2 * r->cap : 8192;
            char *grown = realloc(r->buf, cap);
            if (!grown) return; /* keep what we have */
            r->buf = grown;
            r->cap = cap;
        }
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n > 0) {
            r->len += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        return; /* EOF, or nothing more for now (the child is gone: all of it is here) */
    }
}

/* Writes the complete lines but the last (hold_last), or all of it. */
static void relay_emit(relay *r, int hold_last, int only_ours) {
    size_t end = r->len;
    if (hold_last) {
        char *last = end ? memrchr(r->buf, '\n', end) : NULL;
        end = last ? (size_t)(last - r->buf) : 0; /* up to the last line's start... */
        char *prev = end ? memrchr(r->buf, '\n', end) : NULL;
        end = prev ? (size_t)(prev - r->buf) + 1 : 0; /* ...then hold that line too */
    }
    size_t at = 0;
    while (at < end) {
        char *nl = memchr(r->buf + at, '\n', end - at);
        size_t line = nl ? (size_t)(nl - (r->buf + at)) + 1 : end - at;
        if (!only_ours || (line >= 16 && memcmp(r->buf + at, "scope-profiler: ", 16) == 0))
            (void)!write(STDERR_FILENO, r->buf + at, line);
        at += line;
    }
    memmove(r->buf, r->buf + end, r->len - end);
    r->len -= end;
}

static int contained_off(void) {
    const char *v = getenv("SCOPE_PROFILER_CONTAIN");
    return v && strcmp(v, "0") == 0;
}

/* After the child ended: the rest of its stderr, all of it or only our lines. */
static void finish_relay(relay *r, int all) {
    if (r->fd < 0) return;
    relay_read(r);
    relay_emit(r, 0, !all);
    close(r->fd);
    free(r->buf);
    r->fd = -1;
}

int cli_run_contained(int (*run)(int, char **), int argc, char **argv, int (*finish)(int)) {
    if (contained_off()) return finish(run(argc, argv));
    reading_note = mmap(NULL, NOTE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (reading_note == MAP_FAILED) reading_note = NULL;
    if (reading_note) reading_note[0] = '\0';
    fflush(NULL);
    int pipe_fd[2] = {-1, -1};
    if (!isatty(STDERR_FILENO) && pipe(pipe_fd) != 0) pipe_fd[0] = pipe_fd[1] = -1;
    pid_t child = fork();
    if (child < 0) { /* no containment, but still an answer */
        if (pipe_fd[0] >= 0) {
            close(pipe_fd[0]);
            close(pipe_fd[1]);
        }
        return finish(run(argc, argv));
    }
    if (child == 0) {
        if (pipe_fd[1] >= 0) {
            dup2(pipe_fd[1], STDERR_FILENO);
            close(pipe_fd[0]);
            close(pipe_fd[1]);
        }
        int rc = finish(run(argc, argv));
        fflush(NULL);
        /* _exit: libhdf5's atexit clean-up has nothing left to do for a finished command */
        _exit(rc);
    }
    relay err = {pipe_fd[0], NULL, 0, 0};
    if (pipe_fd[1] >= 0) {
        close(pipe_fd[1]);
        fcntl(err.fd, F_SETFL, fcntl(err.fd, F_GETFL) | O_NONBLOCK);
    }
    double limit = timeout_seconds(), start = now_s();
    const struct timespec pause = {0, 5000000};
    int status = 0;
    for (;;) {
        pid_t got = waitpid(child, &status, WNOHANG);
        if (err.fd >= 0) {
            relay_read(&err);
            relay_emit(&err, 1, 0);
        }
        if (got == child) break;
        if (got < 0 && errno != EINTR) {
            cli_error("lost the worker process: %s", strerror(errno));
            return CLI_EXIT_USAGE;
        }
        if (limit > 0 && now_s() - start > limit) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            finish_relay(&err, 0);
            cli_error("%s: reading did not finish within %g s (SCOPE_PROFILER_CLI_TIMEOUT): the "
                      "file is probably damaged and the HDF5 library looping; check it with "
                      "h5dump, or raise the limit",
                      what_was_read(), limit);
            return CLI_EXIT_USAGE;
        }
        nanosleep(&pause, NULL);
    }
    int sig = WIFEXITED(status) ? 0 : WTERMSIG(status);
    int passed_on = sig == 0 || sig == SIGPIPE || sig == SIGINT || sig == SIGTERM;
    finish_relay(&err, passed_on);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (passed_on) { /* not a crash: pass it on */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    if (sig == SIGXFSZ) { /* the output hit RLIMIT_FSIZE: not the input's fault */
        cli_error("the output went past the file size limit (ulimit -f) and is incomplete; raise "
                  "the limit or write a smaller selection");
        return CLI_EXIT_USAGE;
    }
    cli_error("%s: damaged profile: the HDF5 library crashed reading it (%s); check the file "
              "with h5dump",
              what_was_read(), strsignal(sig));
    return CLI_EXIT_USAGE;
}
