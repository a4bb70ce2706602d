/*
 * pthread_names: a main thread hands work to three named worker threads
 * ("worker 0" ...); `scope-profiler inspect` lists them under those names.
 *     pthread_names [file.h5]
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <stdio.h>

enum { WORKERS = 3, TASKS = 20 };

static void *worker(void *arg) {
    int id = (int)(long)arg;
    char name[32];
    snprintf(name, sizeof name, "worker %d", id);
    sp_set_thread_name(name);
    volatile double x = 0.0;
    for (int t = 0; t < TASKS; t++)
        SP_REGION("task") {
            for (int i = 0; i < 20000 * (id + 1); i++)
                x += 1e-9 * i;
        }
    return NULL;
}

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "profiling_data.h5";
    opt.label = "pthread names";
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_set_thread_name("coordinator");
    pthread_t threads[WORKERS];
    SP_REGION("run") {
        for (long i = 0; i < WORKERS; i++)
            if (pthread_create(&threads[i], NULL, worker, (void *)i) != 0) return 1;
        for (int i = 0; i < WORKERS; i++)
            pthread_join(threads[i], NULL);
    }
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = argc > 2;
    return sp_finalize(&fo) != SP_OK;
}
