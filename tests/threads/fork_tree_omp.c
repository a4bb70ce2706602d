/*
 * OpenMP reproducer for docs/parallel.md §1 (run by check_fork_tree.py): in
 * each step the master's `body` starts before the workers' and outlasts
 * them, the workers' `wait` calls run while it is open, and a late `body` of
 * the master overlaps the workers' `tail` calls; then a nested parallel
 * region under `outer` and tasks under `tasks`. Every worker call belongs
 * under the call open on its forking thread when the region began.
 */
#include <omp.h>
#include <stdatomic.h>
#include <time.h>

#include <scope_profiler.h>

static void work_us(long us) {
    struct timespec ts = {0, us * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void steps(void) {
    for (int s = 0; s < 3; s++) {
        SP_REGION("step") {
            atomic_int master_in = 0;
#pragma omp parallel num_threads(3)
            {
                if (omp_get_thread_num() == 0) {
                    SP_REGION("body") {
                        atomic_store(&master_in, 1);
                        work_us(30000); /* outlasts every worker call below */
                    }
                } else {
                    while (!atomic_load(&master_in)) {
                    }
                    SP_REGION("body") {
                        SP_REGION("compute") { work_us(2000); }
                    }
                    SP_REGION("wait") { work_us(1000); }
                }
            }
        }
    }
}

static void overlapping(void) {
    SP_REGION("late") {
        atomic_int workers_in = 0;
#pragma omp parallel num_threads(3)
        {
            if (omp_get_thread_num() == 0) {
                while (atomic_load(&workers_in) < 2) {
                }
                SP_REGION("body") { work_us(20000); } /* starts inside, ends after the tails */
            } else {
                SP_REGION("tail") {
                    atomic_fetch_add(&workers_in, 1);
                    work_us(5000);
                }
            }
        }
    }
}

static void nested(void) {
    omp_set_max_active_levels(2);
    SP_REGION("outer") {
#pragma omp parallel num_threads(2)
        {
            SP_REGION("team") {
                work_us(1000);
#pragma omp parallel num_threads(2)
                {
                    SP_REGION("inner") { work_us(2000); }
                }
            }
        }
    }
}

static void tasks(void) {
    SP_REGION("tasks") {
#pragma omp parallel num_threads(3)
        {
#pragma omp single
            {
                for (int i = 0; i < 6; i++) {
#pragma omp task
                    {
                        SP_REGION("task") { work_us(2000); }
                    }
                }
            }
        }
    }
}

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "fork_tree_omp.h5";
    if (sp_setup(&opt) != SP_OK) return 1;
    steps();
    overlapping();
    nested();
    tasks();
    sp_finalize_options quiet = {.quiet = 1};
    return sp_finalize(&quiet) == SP_OK ? 0 : 1;
}
