#!/bin/sh
# Runs one case of cases.txt and compares its whole output.
#
#   run_case.sh NAME SOURCE_DIR WORK_DIR BIN_DIR
#
# The case's command line (sh syntax) runs in WORK_DIR with BIN_DIR first on
# PATH and NO_COLOR set. Its stdout must equal expected/NAME.out, its stderr
# expected/NAME.err (empty when that file does not exist), and its exit status
# the case's. WORK_DIR's absolute path is shown as <WORK> in both.
#
# SP_CLI_WRAPPER_DIR, when set, comes first on PATH: scripts/memcheck puts a
# scope-profiler there that runs the real one under valgrind.
#
# SP_UPDATE_EXPECTED=1 writes the outputs into expected/ instead of comparing
# (then read every changed file against the specification before committing).
set -u
name=$1
src=$2
work=$3
bin=$4

line=$(grep "^$name " "$src/cases.txt")
if [ -z "$line" ]; then
    echo "run_case.sh: no case \"$name\" in $src/cases.txt" >&2
    exit 1
fi
want_rc=$(echo "$line" | awk '{print $2}')
cmd=$(echo "$line" | sed 's/^[^ ]* *[0-9] *//')

cd "$work" || exit 1
PATH="${SP_CLI_WRAPPER_DIR:+$SP_CLI_WRAPPER_DIR:}$bin:$PATH"
NO_COLOR=1
export PATH NO_COLOR
unset SCOPE_PROFILER_OUTPUT SCOPE_PROFILER_LABEL COLUMNS

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh -c "$cmd" >"$tmp/out.raw" 2>"$tmp/err.raw"
rc=$?
sed "s|$work|<WORK>|g" "$tmp/out.raw" >"$tmp/out"
sed "s|$work|<WORK>|g" "$tmp/err.raw" >"$tmp/err"

expected="$src/expected"
if [ "${SP_UPDATE_EXPECTED:-0}" = 1 ]; then
    cp "$tmp/out" "$expected/$name.out"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$expected/$name.err"; else rm -f "$expected/$name.err"; fi
    echo "updated $name (exit $rc, case says $want_rc)"
    exit 0
fi

fail=0
echo "\$ $cmd"
if [ "$rc" != "$want_rc" ]; then
    echo "FAIL: exit status $rc, expected $want_rc"
    fail=1
fi
if ! cmp -s "$tmp/out" "$expected/$name.out"; then
    echo "FAIL: stdout differs from expected/$name.out:"
    diff "$expected/$name.out" "$tmp/out" | head -60
    fail=1
fi
if [ -f "$expected/$name.err" ]; then
    if ! cmp -s "$tmp/err" "$expected/$name.err"; then
        echo "FAIL: stderr differs from expected/$name.err:"
        diff "$expected/$name.err" "$tmp/err" | head -20
        fail=1
    fi
elif [ -s "$tmp/err" ]; then
    echo "FAIL: unexpected stderr:"
    head -20 "$tmp/err"
    fail=1
fi
[ "$fail" = 0 ] && echo "ok: $name"
exit "$fail"
