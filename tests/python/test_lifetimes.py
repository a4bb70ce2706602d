"""Reference counting, gc stress, objects outliving their results, and bad input."""

import gc
import os
import shutil
import sys
import tempfile

import scope_profiler
from scope_profiler import CorruptProfileError, ProfileManager, read_h5

fixture = sys.argv[1]  # py_tutorial2.h5


def raises(exc_type, fn, *needles):
    try:
        fn()
    except exc_type as exc:
        text = str(exc)
        for needle in needles:
            assert needle in text, (exc_type, text, needle)
        return text
    raise AssertionError(f"{fn} did not raise {exc_type.__name__}")


# --- objects outlive the results and the function that read them ----------
def pieces():
    r = read_h5(fixture)
    solve = r["solve"]
    return solve, solve[0], solve[0].durations, r.get_regions(), r.summary()


solve, rank0, durations, regions, rows = pieces()
gc.collect()
assert solve.num_calls == 5 and rank0.num_calls == 5 and len(durations) == 5
assert [m.name for m in regions] == ["setup", "timestep", "assemble", "solve"]
assert durations.tolist() == rank0.durations.tolist()
assert not durations.flags.writeable
del solve, regions
gc.collect()
assert rank0.get_summary()["num_calls"] == 5  # the Region keeps the results alive

# --- reference counts stay where they were -------------------------------
r = read_h5(fixture)
base = sys.getrefcount(r)
for _ in range(1000):
    m = r["timestep"]
    m[0].durations
    m.get_summary()
    list(r)
    r.summary(include="s")
del m
gc.collect()
assert sys.getrefcount(r) == base, (sys.getrefcount(r), base)
d = r["solve"][0]
arr = d.durations
base_arr = sys.getrefcount(arr)
for _ in range(1000):
    d.durations
assert sys.getrefcount(arr) == base_arr
name = "a region name used for counting"
scope = ProfileManager.region(name)
base_scope = sys.getrefcount(scope)
for _ in range(1000):
    with ProfileManager.region(name):
        pass
assert sys.getrefcount(scope) == base_scope

# --- gc stress: collections at every allocation, results dropped in between --
gc.set_threshold(1, 1, 1)
with tempfile.TemporaryDirectory() as work:
    for i in range(30):
        path = os.path.join(work, f"run{i}.h5")
        ProfileManager.setup(file_path=path)

        @ProfileManager.profile
        def work_item(x):
            return [x] * 3

        for k in range(50):
            with ProfileManager.region("loop"):
                work_item(k)
        res = ProfileManager.finalize(verbose=False, return_results=True)
        again = read_h5(path)
        assert res["loop"].num_calls == 50 and again["work_item"].num_calls == 50
        arrays = [again[n][0].start_times for n in again.region_names]
        del res, again
        assert all(len(a) == 50 for a in arrays)
gc.set_threshold(700, 10, 10)


# --- memory stays flat over many reads (no leak in the C objects) ---------
def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


for _ in range(100):
    read_h5(fixture).summary()
before = rss_kib()
for _ in range(1500):
    x = read_h5(fixture)
    x.summary()
    x["timestep"][0].durations
    x.format_summary()
    scope_profiler.collect_region_statistics(x)
growth = rss_kib() - before
# (under ASan the quarantine keeps freed memory resident: the release build checks growth)
if "asan" not in os.environ.get("LD_PRELOAD", ""):
    assert growth < 4096, f"resident memory grew by {growth} KiB over 1500 reads"

# --- bad input: the Python package's exceptions, never a crash -------------
with tempfile.TemporaryDirectory() as work:
    raises(FileNotFoundError, lambda: read_h5(os.path.join(work, "missing.h5")),
           "HDF5 file not found: ", "missing.h5")
    text_file = os.path.join(work, "notes.h5")
    with open(text_file, "w") as f:
        f.write("not a profile\n")
    raises(CorruptProfileError, lambda: read_h5(text_file), "notes.h5")
    assert issubclass(CorruptProfileError, ValueError)
    cut = os.path.join(work, "cut.h5")
    with open(fixture, "rb") as src, open(cut, "wb") as dst:
        dst.write(src.read()[: os.path.getsize(fixture) // 2])
    raises(CorruptProfileError, lambda: read_h5(cut), "cut.h5")
    empty_h5 = os.path.join(work, "empty.h5")
    open(empty_h5, "wb").close()
    raises(CorruptProfileError, lambda: read_h5(empty_h5), "empty.h5")

    raises(RuntimeError, lambda: ProfileManager.finalize(verbose=False), "no active profiling session")
    ProfileManager.setup(file_path=os.path.join(work, "x.h5"))
    raises(RuntimeError, lambda: ProfileManager.setup(), "already active")
    ProfileManager.finalize(verbose=False)
    raises(RuntimeError, lambda: ProfileManager.finalize(verbose=False), "no active profiling session")
    session = ProfileManager.session(file_path=os.path.join(work, "s.h5"), verbose=False)
    with session:
        with ProfileManager.region("inside"):
            pass

    def reuse():
        with session:
            pass

    raises(RuntimeError, reuse, "already been used")
    s = read_h5(os.path.join(work, "s.h5"))
    assert s.region_names == ["scope_profiler.session", "inside"] or sorted(s.region_names) == [
        "inside", "scope_profiler.session"], s.region_names
    # an unwritable output: the error names the path at finalize, and no session stays open
    blocked = os.path.join(work, "plain_file")
    open(blocked, "w").close()
    ProfileManager.setup(file_path=os.path.join(blocked, "x.h5"))
    with ProfileManager.region("kept"):
        pass
    raises(OSError, lambda: ProfileManager.finalize(verbose=False), "plain_file")
    assert not ProfileManager.is_active()

raises(TypeError, lambda: read_h5(3), "file_path")
raises(TypeError, lambda: ProfileManager.setup(label=3), "label")
raises(TypeError, lambda: ProfileManager.setup(no_such_option=1), "no_such_option")
raises(TypeError, lambda: ProfileManager.region(3), "name")
raises(TypeError, lambda: ProfileManager.profile(3), "name")
raises(TypeError, lambda: r.get_regions(include=3), "include")
raises(TypeError, lambda: r.summary(exclude=[1]), "exclude")
raises(TypeError, lambda: r.print_summary(columns=5), "columns")
raises(TypeError, lambda: r[0], "str")
raises(TypeError, lambda: r["solve"]["0"], "rank")
raises(TypeError, lambda: scope_profiler.write_region_statistics_json(5, "x.json"), "results")
raises(KeyError, lambda: r["solve"][7], "Region 'solve' has no data for rank 7")
raises(KeyError, lambda: r["sovle"], "No region named 'sovle'")
raises(ValueError, lambda: r.summary(include="("), "(")
raises(ValueError, lambda: r.print_summary(sort="bogus"))
raises(ValueError, lambda: ProfileManager.setup(metadata_detail="everything"), "metadata_detail")
# percentile(q) on MPIRegion and Region: numpy's linear rule over the durations; q checked
import numpy

for obj in (r["solve"], r["solve"][0]):
    d = r["solve"][0].durations
    for q in (0, 50, 95, 100):
        assert abs(obj.percentile(q) - numpy.percentile(d, q)) < 1e-12, (obj, q)
    raises(TypeError, lambda: obj.percentile("95"), "argument 'q' must be a number, not str")
    raises(ValueError, lambda: obj.percentile(101), "q must be in [0, 100]")
    raises(ValueError, lambda: obj.percentile(-1), "q must be in [0, 100]")
assert not ProfileManager.is_active()
print("lifetimes: counts, gc stress, memory and errors checked")
