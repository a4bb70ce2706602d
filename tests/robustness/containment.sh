#!/bin/sh
# The CLI contains libhdf5 (docs/robustness.md): a crash or an endless loop
# while reading gives one line naming the file and exit 2. The test hooks
# SCOPE_PROFILER_TEST_CRASH_READING / _HANG_READING stand in for a damaged
# file that crashes or hangs inside the HDF5 library.
#
#   containment.sh CLI FIXTURES_DIR
set -u
cli=$1
cd "$2" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

expect_one_line() { # NAME EXPECTED-RC PATTERN
    [ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: stderr is not one line: $(cat "$tmp/err")"
    grep -q "$3" "$tmp/err" || fail "$1: stderr: $(cat "$tmp/err")"
}

SCOPE_PROFILER_TEST_CRASH_READING=1 "$cli" inspect py_tutorial2.h5 >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_one_line crash 2 "^scope-profiler: py_tutorial2.h5: damaged profile: the HDF5 library crashed reading it (Segmentation fault)"

start=$(date +%s)
SCOPE_PROFILER_TEST_HANG_READING=1 SCOPE_PROFILER_CLI_TIMEOUT=1 "$cli" stats py_tutorial2.h5 c_schema2.h5 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
expect_one_line hang 2 "^scope-profiler: py_tutorial2.h5: reading did not finish within 1 s"
[ "$took" -le 10 ] || fail "hang: took $took s"

# the ordinary path is unchanged: output and status pass through
"$cli" inspect py_tutorial2.h5 --regions-only >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && grep -q timestep "$tmp/out" || fail "plain inspect: exit $rc"
"$cli" inspect no_such_file.h5 >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_one_line missing 2 "no such file"
SCOPE_PROFILER_CONTAIN=0 "$cli" inspect py_tutorial2.h5 --regions-only >"$tmp/out" 2>&1 || fail "CONTAIN=0"

# RLIMIT_FSIZE on stdout is the output's limit, not damage of the input (issue 22)
prlimit --fsize=2000 "$cli" inspect py_tutorial2.h5 >"$tmp/big" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -qxF "scope-profiler: the output went past the file size limit (ulimit -f) and is incomplete; raise the limit or write a smaller selection" "$tmp/err" ||
    fail "file size limit: exit $rc, $(cat "$tmp/err")"

[ "$fails" = 0 ] && echo "containment: all cases passed"
exit $((fails > 0))
