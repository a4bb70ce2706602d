"""8 Python threads record at once: exact counts, one lane per thread, nesting kept."""

import os
import sys
import tempfile
import threading

from scope_profiler import ProfileManager, read_h5

THREADS, CALLS = 8, 2000


@ProfileManager.profile()
def leaf(x):
    return x + 1


def worker(n):
    for i in range(CALLS):
        with ProfileManager.region("outer"):
            with ProfileManager.region(f"inner_{n % 2}"):
                leaf(i)


with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "threads.h5")
    ProfileManager.setup(file_path=path)
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results = ProfileManager.finalize(verbose=False, return_results=True)
    r = read_h5(path)
    for res in (results, r):
        assert res["outer"].num_calls == THREADS * CALLS
        assert res["inner_0"].num_calls == THREADS // 2 * CALLS
        assert res["inner_1"].num_calls == THREADS // 2 * CALLS
        assert res["leaf"].num_calls == THREADS * CALLS  # the default name: the qualified name
        rows = {row["name"]: row for row in res.summary()}
        inner = rows["inner_0"]["total_duration"] + rows["inner_1"]["total_duration"]
        assert abs(rows["outer"]["exclusive_duration"] - (rows["outer"]["total_duration"] - inner)) < 1e-6
    balance = __import__("scope_profiler").balance(r, include="outer")
    text = str(balance)
    assert "outer" in text, text
print(f"threads: {THREADS} x {CALLS} calls recorded exactly")
