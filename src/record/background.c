#include "record/background.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

enum { JOB_IDLE, JOB_QUEUED, JOB_RUNNING };

/* Seconds without work after which the helper ends (a next job starts another). */
#define IDLE_SECONDS 1

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER; /* a job was queued */
static pthread_cond_t done = PTHREAD_COND_INITIALIZER; /* a job finished */
static sp_background_job *head, *tail;
static int helper_running;
static int stop_when_idle;    /* sp_background_stop: end as soon as the queue is empty */
static int work_on_monotonic; /* `work` was made for timed waits on CLOCK_MONOTONIC */

static void *helper(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!head) {
            if (stop_when_idle) break;
            struct timespec until;
            clock_gettime(work_on_monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &until);
            until.tv_sec += IDLE_SECONDS;
            if (pthread_cond_timedwait(&work, &lock, &until) == ETIMEDOUT && !head) break;
        }
        if (!head) {
            helper_running = 0;
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        sp_background_job *job = head;
        head = job->next;
        if (!head) tail = NULL;
        job->next = NULL;
        job->state = JOB_RUNNING;
        pthread_mutex_unlock(&lock);
        job->run(job);
        pthread_mutex_lock(&lock);
        job->state = JOB_IDLE;
        pthread_cond_broadcast(&done);
    }
}

/* Timed waits for work on the monotonic clock (immune to clock changes). */
static void init_work_condition(void) {
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return;
    if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
        pthread_cond_init(&work, &attr) == 0)
        work_on_monotonic = 1;
    pthread_condattr_destroy(&attr);
}

/* Starts the helper (lock held); 0 if it cannot be. */
static int start_helper(void) {
    if (!work_on_monotonic) init_work_condition();
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return 0;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* The default stack, not a small one: when the main thread ended with
     * pthread_exit() and the helper is the last thread to end, glibc runs the
     * exit handlers, and so the whole finalize, on the helper's stack. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the helper inherits a full mask */
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, helper, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) return 0;
    pthread_setname_np(thread, "scope-prof-bg");
    helper_running = 1;
    return 1;
}

int sp_background_submit(sp_background_job *job) {
    pthread_mutex_lock(&lock);
    while (job->state == JOB_RUNNING) /* its last steps, after it published its result */
        pthread_cond_wait(&done, &lock);
    if (job->state == JOB_QUEUED) {
        pthread_mutex_unlock(&lock);
        return 1;
    }
    if (!helper_running && !start_helper()) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    stop_when_idle = 0;
    job->next = NULL;
    job->state = JOB_QUEUED;
    if (tail)
        tail->next = job;
    else
        head = job;
    tail = job;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    return 1;
}

void sp_background_cancel(sp_background_job *job) {
    pthread_mutex_lock(&lock);
    if (job->state == JOB_QUEUED) {
        sp_background_job **link = &head, *prev = NULL;
        while (*link != job) {
            prev = *link;
            link = &(*link)->next;
        }
        *link = job->next;
        if (tail == job) tail = prev;
        job->next = NULL;
        job->state = JOB_IDLE;
    }
    while (job->state == JOB_RUNNING)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
}

void sp_background_stop(void) {
    pthread_mutex_lock(&lock);
    stop_when_idle = 1;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
}

int sp_background_pending(sp_background_job *job) {
    pthread_mutex_lock(&lock);
    int pending = job->state != JOB_IDLE;
    pthread_mutex_unlock(&lock);
    return pending;
}

void sp_background_lock_for_fork(void) {
    pthread_mutex_lock(&lock);
}

void sp_background_unlock_after_fork(void) {
    pthread_mutex_unlock(&lock);
}

void sp_background_forget_after_fork(void) {
    /* the helper thread does not exist in the child; the condition variables
     * may hold the parent's waiters: fresh ones */
    static const pthread_cond_t fresh = PTHREAD_COND_INITIALIZER;
    head = tail = NULL;
    helper_running = 0;
    stop_when_idle = 0;
    done = fresh;
    work = fresh;
    work_on_monotonic = 0;
}
