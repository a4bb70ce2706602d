#include "cli/cli_contain.h"

#include <errno.h>
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
        for (;;) pause();
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

static int contained_off(void) {
    const char *v = getenv("SCOPE_PROFILER_CONTAIN");
    return v && strcmp(v, "0") == 0;
}

int cli_run_contained(int (*run)(int, char **), int argc, char **argv, int (*finish)(int)) {
    if (contained_off()) return finish(run(argc, argv));
    reading_note = mmap(NULL, NOTE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (reading_note == MAP_FAILED) reading_note = NULL;
    if (reading_note) reading_note[0] = '\0';
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) return finish(run(argc, argv)); /* no containment, but still an answer */
    if (child == 0) {
        int rc = finish(run(argc, argv));
        fflush(NULL);
        /* _exit: libhdf5's atexit clean-up has nothing left to do for a finished command */
        _exit(rc);
    }
    double limit = timeout_seconds(), start = now_s();
    const struct timespec pause = {0, 5000000};
    int status = 0;
    for (;;) {
        pid_t got = waitpid(child, &status, WNOHANG);
        if (got == child) break;
        if (got < 0 && errno != EINTR) {
            cli_error("lost the worker process: %s", strerror(errno));
            return CLI_EXIT_USAGE;
        }
        if (limit > 0 && now_s() - start > limit) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            cli_error("%s: reading did not finish within %g s (SCOPE_PROFILER_CLI_TIMEOUT): the "
                      "file is probably damaged and the HDF5 library looping; check it with "
                      "h5dump, or raise the limit",
                      what_was_read(), limit);
            return CLI_EXIT_USAGE;
        }
        nanosleep(&pause, NULL);
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    int sig = WTERMSIG(status);
    if (sig == SIGPIPE || sig == SIGINT || sig == SIGTERM) { /* not a crash: pass it on */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    cli_error("%s: damaged profile: the HDF5 library crashed reading it (%s); check the file "
              "with h5dump",
              what_was_read(), strsignal(sig));
    return CLI_EXIT_USAGE;
}
