#!/bin/sh
# pip install --no-build-isolation ./bindings/python from the checkout, into a
# fresh venv that sees Debian's numpy and pandas, against this build's library;
# then the tutorial check with that interpreter.  pip_install.sh PYTHON SRC BUILD WORK
set -eu
python="$1" src="$2" build="$3" work="$4"
rm -rf "$work"
"$python" -m venv --system-site-packages "$work/venv"
SCOPE_PROFILER_BUILD_DIR="$build" "$work/venv/bin/python" -m pip install --quiet \
    --no-build-isolation --no-deps --no-index "$src/bindings/python"
rm -rf "$src/bindings/python/build" "$src/bindings/python/scope_profiler.egg-info"
cd "$work"
# the installed module, not the build tree's
env -u PYTHONPATH "$work/venv/bin/python" -c 'import scope_profiler, sys; assert "/venv/" in scope_profiler.__file__, scope_profiler.__file__'
env -u PYTHONPATH "$work/venv/bin/python" "$src/tests/python/check_tutorial.py" "$build/scope-profiler" "$src/tests/python/tutorial.py"
env -u PYTHONPATH "$work/venv/bin/python" -m scope_profiler --version
