#include "record/endings.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/worker_threads.h"
#include "record/journal_layout.h"
#include "record/session.h"
#include "record/store.h"
#include "record/thread_state.h"

/* What batch systems and users send before SIGKILL, and abort(). */
static const int CAUGHT[] = {SIGTERM, SIGINT, SIGUSR1, SIGUSR2, SIGHUP, SIGXCPU, SIGABRT};
#define NUM_CAUGHT (sizeof CAUGHT / sizeof CAUGHT[0])

static struct sigaction previous[NUM_CAUGHT];
static volatile sig_atomic_t installed[NUM_CAUGHT];

static int slot_of(int sig) {
    for (size_t i = 0; i < NUM_CAUGHT; i++)
        if (CAUGHT[i] == sig) return (int)i;
    return -1;
}

/* Async-signal-safe only: plain stores to the journal, sigaction, raise. */
static void on_signal(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    sp_store_mark_ending(SP_ENDING_SIGNAL, sig);
    int i = slot_of(sig);
    if (i < 0) return;
    const struct sigaction *old = &previous[i];
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction) old->sa_sigaction(sig, info, context);
    } else if (old->sa_handler == SIG_DFL) {
        /* the default action, once this handler returns and the signal is unblocked */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        installed[i] = 0;
        raise(sig);
    } else if (old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    }
    errno = saved_errno;
}

static void install_signals(void) {
    for (size_t i = 0; i < NUM_CAUGHT; i++) {
        if (installed[i]) continue;
        struct sigaction old;
        if (sigaction(CAUGHT[i], NULL, &old) != 0) continue;
        if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_signal) continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue; /* nohup */
        struct sigaction ours;
        memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = on_signal;
        ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
        ours.sa_mask = old.sa_mask;
        previous[i] = old;
        if (sigaction(CAUGHT[i], &ours, NULL) == 0) installed[i] = 1;
    }
}

void sp_endings_uninstall(void) {
    for (size_t i = 0; i < NUM_CAUGHT; i++) {
        if (!installed[i]) continue;
        struct sigaction now;
        /* a handler the program installed after ours stays */
        if (sigaction(CAUGHT[i], NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
            now.sa_sigaction == on_signal)
            sigaction(CAUGHT[i], &previous[i], NULL);
        installed[i] = 0;
    }
}

static void at_exit(void) {
    if (sp_internal_session_state() != SP_SESSION_RECORDING) return;
    if (sp_internal_has_finalize_hook()) {
        /* a collective finalize cannot run from exit(): the journal stays */
        sp_store_keep_journal(SP_ENDING_EXIT, "the program ended without sp_finalize(); ");
        return;
    }
    fprintf(stderr,
            "scope-profiler: the program ended without sp_finalize(); writing the profile %s "
            "now\n",
            sp_output_path() ? sp_output_path() : "");
    sp_worker_threads_caller_only(); /* no threads may start now: see worker_threads.h */
    sp_finalize(NULL);
}

static void before_fork(void) {
    sp_internal_session_lock_for_fork();
    sp_thread_lock_for_fork();
    sp_store_lock_for_fork();
}

static void after_fork_parent(void) {
    sp_store_unlock_after_fork();
    sp_thread_unlock_after_fork();
    sp_internal_session_unlock_after_fork();
}

static void after_fork_child(void) {
    sp_store_unlock_after_fork();
    sp_thread_unlock_after_fork();
    sp_internal_session_unlock_after_fork();
    sp_internal_session_forget_after_fork();
    sp_store_forget_after_fork();
    sp_thread_forget_after_fork();
}

static pthread_once_t process_once = PTHREAD_ONCE_INIT;

static void install_process_handlers(void) {
    atexit(at_exit);
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

void sp_endings_install(int journal) {
    pthread_once(&process_once, install_process_handlers);
    if (journal) install_signals();
}
