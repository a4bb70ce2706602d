#!/bin/sh
# An aggregate-mode file as the Python package writes it (built with h5py by
# tests/cli/python_aggregate/make_aggregate.py, 2 ranks) against a file with
# per-call data (1 rank): refused without --allow-different-sizes (exit 2);
# with it, diff compares what both hold, the run-level verdict
# "inconclusive (1 run per side)"; check judges on the budget (exit 1);
# --per-call and a percentile metric are refused, naming the file (exit 2).
#   check_aggregate.sh BIN_DIR PYTHON WORK_DIR SOURCE_DIR
set -u
bin=$1
python=$2
work=$3
src=$4
cd "$work" || exit 1
NO_COLOR=1
export NO_COLOR
"$python" "$src/../cli/python_aggregate/make_aggregate.py" agg_py.h5 || exit 1
fail=0
expect_error() { # EXIT-LINE ARGS...: exit 2 with exactly that stderr line
    want_err=$1
    shift
    err=$("$bin/scope-profiler" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" != 2 ] || [ "$err" != "$want_err" ]; then
        echo "FAIL $* (exit $rc): $err"
        fail=1
    fi
}
expect_error "scope-profiler: diff: agg_py.h5 ran on 2 ranks but base_1.h5 on 1: compare runs of one size, or pass --allow-different-sizes" \
    diff agg_py.h5 base_1.h5
expect_error "scope-profiler: diff: agg_py.h5 is an aggregate file (no per-call durations): --per-call needs per-call data; drop --per-call and compare repeated runs" \
    diff agg_py.h5 base_1.h5 --per-call --allow-different-sizes
out=$(COLUMNS=0 "$bin/scope-profiler" diff agg_py.h5 base_1.h5 --significant --include s --allow-different-sizes)
rc=$?
want='  │ solve    │ 0.045           │ 0.201778        │ +0.156778 │ +348.4%     │ -     │ -              │ inconclusive (1 run per side) │
  │ setup    │ 0.06            │ 0.01            │ -0.05     │ -83.33%     │ -     │ -              │ inconclusive (1 run per side) │'
got=$(echo "$out" | grep '│ s')
if [ "$rc" != 0 ] || [ "$got" != "$want" ]; then
    echo "FAIL diff (exit $rc):"
    echo "$out"
    fail=1
fi
"$bin/scope-profiler" check agg_py.h5 base_1.h5 --include s --allow-different-sizes >check.out
rc=$?
if [ "$rc" != 1 ] || ! grep -qx 'Budget violations: solve' check.out; then
    echo "FAIL check (exit $rc):"
    cat check.out
    fail=1
fi
err=$("$bin/scope-profiler" diff agg_py.h5 base_1.h5 --metric p95 --allow-different-sizes 2>&1 >/dev/null)
rc=$?
if [ "$rc" != 2 ] || [ "$err" != "scope-profiler: agg_py.h5 holds no per-call data (aggregate file): the metric p95 needs per-call durations (use total, avg, min, max, calls or imbalance)" ]; then
    echo "FAIL p95 (exit $rc): $err"
    fail=1
fi
rm -f agg_py.h5 check.out
[ "$fail" = 0 ] && echo "ok: aggregate file against per-call data"
exit "$fail"
