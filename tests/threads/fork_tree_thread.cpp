// std::thread reproducer for docs/parallel.md §1 (run by check_fork_tree.py):
// threads created inside `launch` run `job` while the creating thread is in
// `own_work` (started after the creation, so not their parent); one job
// starts a thread of its own, whose `helper` belongs under that `job`.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <scope_profiler.h>

static void sleep_ms(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "fork_tree_thread.h5";
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_begin_name("launch");
    std::vector<std::thread> pool;
    std::atomic<bool> spawned(false); // jobs begin only after spawn ended (not by a sleep)
    sp_begin_name("spawn");
    for (int i = 0; i < 3; i++)
        pool.emplace_back([i, &spawned] {
            while (!spawned.load())
                sleep_ms(1);
            sp_begin_name("job");
            if (i == 0) {
                std::thread helper([] {
                    sp_begin_name("helper");
                    sleep_ms(2);
                    sp_end_name("helper");
                });
                helper.join();
            }
            sleep_ms(5);
            sp_end_name("job");
        });
    sp_end_name("spawn");
    spawned.store(true);
    sp_begin_name("own_work");
    sleep_ms(40);
    sp_end_name("own_work");
    for (auto &t : pool)
        t.join();
    sp_end_name("launch");
    sp_finalize_options quiet = {};
    quiet.quiet = 1;
    return sp_finalize(&quiet) == SP_OK ? 0 : 1;
}
