#!/bin/sh
# mpi_aggregate_npN: run test_mpi_aggregate on N ranks, then check its file.
# Usage: run_aggregate.sh OUT.h5 N BINARY PYTHON CHECK.py MPIEXEC [FLAGS...]
set -eu
out="$1" np="$2" binary="$3" python="$4" check="$5"
shift 5
rm -f "$out"
"$@" -np "$np" "$binary" "$out"
"$python" "$check" "$out" "$np"
