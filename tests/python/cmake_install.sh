#!/bin/sh
# cmake --install puts the module into PREFIX/lib/pythonX.Y/site-packages; with
# PYTHONPATH set to that directory it imports, links the installed library
# (its run path), and python3 -m scope_profiler runs the installed CLI.
#   cmake_install.sh CMAKE PYTHON BUILD SITE_RELATIVE WORK FIXTURE
set -eu
cmake="$1" python="$2" build="$3" site="$4" work="$5" fixture="$6"
rm -rf "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
export PYTHONPATH="$work/prefix/$site"
cd "$work"
"$python" - "$work/prefix" "$fixture" <<'PY'
import os, sys
import scope_profiler
prefix, fixture = sys.argv[1], sys.argv[2]
assert scope_profiler.__file__.startswith(prefix), scope_profiler.__file__
with open("/proc/self/maps") as f:
    libs = {line.split()[-1] for line in f if "libscope_profiler" in line}
assert libs and all(os.path.realpath(l).startswith(os.path.realpath(prefix)) for l in libs), libs
r = scope_profiler.read_h5(fixture)
assert repr(r) == "<ProfilingResults 'py_tutorial2.h5': 4 region(s), 1 rank(s)>", repr(r)
assert r["solve"].num_calls == 5
PY
out=$("$python" -m scope_profiler --version)
test "$out" = "$("$work/prefix/bin/scope-profiler" --version)"
grep -q "CLI = \"$work/prefix/bin/scope-profiler\"" "$work/prefix/$site/scope_profiler/_build_info.py"
