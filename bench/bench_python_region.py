"""Cost of one `with ProfileManager.region(name)` pair against an empty C-level
context manager of the same shape (scope_profiler._core._null_region) in the
same loop: the floor any C extension's context manager pays. Prints ns per
pair (best of the rounds, rounds interleaved) and the ratio (target <= 1.5).

    PYTHONPATH=build/bindings/python /usr/bin/python3 bench/bench_python_region.py [pairs]
"""

import os
import sys
import tempfile
import time

from scope_profiler import ProfileManager, _core

PAIRS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
ROUNDS = 7


def loop_region(n):
    region = ProfileManager.region
    for _ in range(n):
        with region("step"):
            pass


def loop_null(n):
    region = _core._null_region
    for _ in range(n):
        with region("step"):
            pass


def loop_tutorial_style(n):
    for _ in range(n):
        with ProfileManager.region("step"):
            pass


class _NullManager:
    region = _core._null_region


def loop_null_tutorial_style(n):
    for _ in range(n):
        with _NullManager.region("step"):
            pass


def loop_decorated(n):
    @ProfileManager.profile("leaf")
    def leaf():
        pass

    for _ in range(n):
        leaf()


def loop_plain_call(n):
    def leaf():
        pass

    for _ in range(n):
        leaf()


def loop_empty(n):
    for _ in range(n):
        pass


with tempfile.TemporaryDirectory() as work:
    ProfileManager.setup(file_path=os.path.join(work, "bench.h5"), journal=False)
    best = {}
    cases = [loop_empty, loop_null, loop_region, loop_null_tutorial_style, loop_tutorial_style, loop_plain_call,
             loop_decorated]
    for _ in range(ROUNDS):
        for case in cases:
            t0 = time.perf_counter_ns()
            case(PAIRS)
            ns = (time.perf_counter_ns() - t0) / PAIRS
            best[case.__name__] = min(best.get(case.__name__, float("inf")), ns)
    ProfileManager.finalize(verbose=False)

print(f"== Python region cost, {PAIRS} pairs, best of {ROUNDS} interleaved rounds")
print(f"empty loop                               {best['loop_empty']:7.1f} ns per iteration")
print(f"with _null_region('step') (the floor)    {best['loop_null']:7.1f} ns per pair")
print(f"with region('step') (bound once)         {best['loop_region']:7.1f} ns per pair")
print(f"with _NullManager.region('step') (floor)  {best['loop_null_tutorial_style']:7.1f} ns per pair")
print(f"with ProfileManager.region('step')       {best['loop_tutorial_style']:7.1f} ns per pair")
print(f"plain Python call                        {best['loop_plain_call']:7.1f} ns per call")
print(f"@ProfileManager.profile call             {best['loop_decorated']:7.1f} ns per call")
print(f"ratio region / floor: {best['loop_region'] / best['loop_null']:.2f}x "
      f"(ProfileManager.region against the same lookup: "
      f"{best['loop_tutorial_style'] / best['loop_null_tutorial_style']:.2f}x; target <= 1.5x)")
