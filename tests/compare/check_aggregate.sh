#!/bin/sh
# An aggregate-mode file as the Python package writes it (built with h5py by
# tests/cli/python_aggregate/make_aggregate.py) against a file with per-call
# data: diff compares what both hold, with the verdict "n/a (no per-call
# data)"; check --significant judges those rows on the budget alone (exit 1);
# a percentile metric is refused, naming the file (exit 2).
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
out=$("$bin/scope-profiler" diff agg_py.h5 base_1.h5 --significant --include s)
rc=$?
want='  │ solve    │ 0.045           │ 0.201778        │ +0.156778 │ +348.4%     │ -     │ -              │ n/a (no per-call data) │
  │ setup    │ 0.06            │ 0.01            │ -0.05     │ -83.33%     │ -     │ -              │ n/a (no per-call data) │'
got=$(echo "$out" | grep '│ s')
if [ "$rc" != 0 ] || [ "$got" != "$want" ]; then
    echo "FAIL diff (exit $rc):"
    echo "$out"
    fail=1
fi
"$bin/scope-profiler" check agg_py.h5 base_1.h5 --significant --include s >check.out
rc=$?
if [ "$rc" != 1 ] || ! grep -qx 'Budget violations: solve' check.out; then
    echo "FAIL check (exit $rc):"
    cat check.out
    fail=1
fi
err=$("$bin/scope-profiler" diff agg_py.h5 base_1.h5 --metric p95 2>&1 >/dev/null)
rc=$?
if [ "$rc" != 2 ] || [ "$err" != "scope-profiler: agg_py.h5 holds no per-call data (aggregate file): the metric p95 needs per-call durations (use total, avg, min, max, calls or imbalance)" ]; then
    echo "FAIL p95 (exit $rc): $err"
    fail=1
fi
rm -f agg_py.h5 check.out
[ "$fail" = 0 ] && echo "ok: aggregate file against per-call data"
exit "$fail"
