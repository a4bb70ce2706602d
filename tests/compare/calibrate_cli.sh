#!/bin/sh
# scope-profiler calibrate end to end on calibrate_target: a tenfold
# slowdown is caught in every A/B pair (a generous bound: the machine's
# noise is far below x10), the report's lines are there, and a failing
# program or a missing one is one error line with exit 2.
#   calibrate_cli.sh BIN_DIR TARGET
set -u
bin=$1
target=$2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
out=$(NO_COLOR=1 nice -n 10 "$bin/scope-profiler" calibrate --pairs 2 --power-pairs 2 --runs 3 \
    --metric p50 --inject SP_CALIBRATE_SLOWDOWN=9 --dir "$dir/runs" -- "$target" 2000)
rc=$?
if [ "$rc" != 0 ] ||
    ! echo "$out" | grep -qx 'Calibration: 3 runs per side, metric p50, level 0.01, margin 2%' ||
    ! echo "$out" | grep -q '^A/A: 2 pairs: ' ||
    ! echo "$out" | grep -q '^  false-alarm rate: ' ||
    ! echo "$out" | grep -q '^A/B: 2 pairs: 2 slower, 0 faster' ||
    ! echo "$out" | grep -q '^  power (SP_CALIBRATE_SLOWDOWN=9): 100.0 %'; then
    echo "FAIL calibrate (exit $rc):"
    echo "$out"
    fail=1
fi
if [ -n "$(ls "$dir/runs")" ]; then
    echo "FAIL: the runs' files were left in $dir/runs"
    fail=1
fi
err=$("$bin/scope-profiler" calibrate --pairs 1 -- false 2>&1 >/dev/null)
rc=$?
want='scope-profiler: calibrate: false exited with status 1: fix the program (it must exit 0 and write $SCOPE_PROFILER_OUTPUT)'
if [ "$rc" != 2 ] || [ "$err" != "$want" ]; then
    echo "FAIL failing program (exit $rc): $err"
    fail=1
fi
err=$("$bin/scope-profiler" calibrate --pairs 1 2>&1 >/dev/null)
rc=$?
if [ "$rc" != 2 ] || ! echo "$err" | grep -q 'needs the program to run after "--"'; then
    echo "FAIL no program (exit $rc): $err"
    fail=1
fi
exit $fail
